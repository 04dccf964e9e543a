/**
 * Where the Python kernel gets package files: the worker asks the page over the protocol
 * (session.ts), Node tests fetch from a local server (packageFilesOver). Failures reject with
 * PackageFetchError, whose `reason` and `message` the import error passes on.
 */
import { fetchVerified, type FetchProgress } from './fetch-verified';

export interface PackageFile {
  bytes: Uint8Array;
  /** The absolute URL it came from, for messages. */
  url: string;
  fromCache: boolean;
}

export interface PackageFiles {
  /** A file of the package base by bare name (a wheel of the lock, or `pyodide-lock.json`). */
  fetch(fileName: string, sha256: string | null, onProgress: FetchProgress): Promise<PackageFile>;
  /** A file on PyPI (`%pip install`): its JSON API or a wheel on files.pythonhosted.org. */
  fetchPyPI?(url: string, sha256: string | null, onProgress: FetchProgress): Promise<PackageFile>;
}

/** Package files straight from `base` (a URL ending in `/`), as the page would fetch them. */
export function packageFilesOver(base: string, pypi?: (url: string) => string): PackageFiles {
  return {
    async fetch(fileName, sha256, onProgress) {
      const url = new URL(fileName, base).href;
      return { bytes: await fetchVerified(url, sha256, onProgress), url, fromCache: false };
    },
    async fetchPyPI(url, sha256, onProgress) {
      // Tests serve PyPI from a local server: `pypi` maps the real URL there.
      const real = pypi ? pypi(url) : url;
      return { bytes: await fetchVerified(real, sha256, onProgress), url, fromCache: false };
    },
  };
}
