/** How dataset loaders reach the outside world: an injected reader of the bundled data files. */
import { DataFileError, failureOfThrown, type DataFileContext } from './data-file-error';

/**
 * Reads one file of the bundled data, addressed relative to the data root (`public/data/` in the
 * repository, `<base>/data/` when served), with forward slashes: `mnist/manifest.json`. It may
 * hand back gzip files already inflated (a server that sends `.gz` files with
 * `Content-Encoding: gzip`, as Vite's preview does, has the browser inflate them), so loaders
 * inflate only what still starts with the gzip magic bytes.
 */
export type ReadAsset = (path: string) => Promise<Uint8Array>;

/**
 * A reader for the worker (and anything else with `fetch`): `base` is the data root's URL. A file
 * that cannot be fetched fails with a DataFileError naming the file, its dataset and the reason
 * (offline, network failure, HTTP status), the original error as its `cause`; `context` says who
 * reads (a cell loading a dataset, or the home page downloading every file), which sets the advice.
 */
export function fetchAssetReader(base: string | URL, context: DataFileContext = 'load'): ReadAsset {
  // A base without a trailing slash would make `new URL` replace its last segment.
  const root = new URL(String(base).endsWith('/') ? String(base) : `${String(base)}/`);
  return async (path) => {
    const url = new URL(path, root);
    let response: Response;
    try {
      response = await fetch(url);
    } catch (error) {
      throw thrownToDataFileError(path, error, context);
    }
    if (!response.ok) {
      throw new DataFileError(
        path,
        { kind: 'http', status: response.status, statusText: response.statusText },
        { context },
      );
    }
    try {
      return new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      // The connection dropped while the body was arriving.
      throw thrownToDataFileError(path, error, context);
    }
  };
}

function thrownToDataFileError(path: string, error: unknown, context: DataFileContext): unknown {
  // An abort is the caller's doing, not a missing file.
  if ((error as { name?: unknown } | null)?.name === 'AbortError') return error;
  return new DataFileError(path, failureOfThrown(), { cause: error, context });
}
