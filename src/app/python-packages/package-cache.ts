/**
 * The page's cache of Python package files: one Cache Storage cache per bundled Pyodide version,
 * keyed by each file's absolute URL. Wheels at a pinned version never change, so a verified one is
 * kept for good; a cache of another Pyodide version is dropped (its wheels cannot load here).
 */
import { PYODIDE_VERSION } from '../settings/package-base';

const CACHE_PREFIX = 'gpubook-python-packages-v';
export const PACKAGE_CACHE = `${CACHE_PREFIX}${PYODIDE_VERSION}`;

/** The base's package list (Pyodide's lock file); the only file asked for without a hash. */
export const LOCK_FILE = 'pyodide-lock.json';

/** What the fetcher needs of a cache (a Cache Storage `Cache` is one). */
export interface PackageCache {
  match(url: string): Promise<Response | undefined>;
  put(url: string, response: Response): Promise<void>;
  delete(url: string): Promise<boolean>;
}

let opened: Promise<PackageCache | null> | null = null;

/** The cache, or null where the browser has no Cache Storage (then nothing is kept). */
export function openPackageCache(): Promise<PackageCache | null> {
  opened ??= (async () => {
    if (typeof caches === 'undefined') return null;
    try {
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((name) => name.startsWith(CACHE_PREFIX) && name !== PACKAGE_CACHE)
          .map((name) => caches.delete(name)),
      );
      return await caches.open(PACKAGE_CACHE);
    } catch (error) {
      // Storage refused (some private windows): packages still load, each from the network.
      console.warn('No cache for Python packages', error);
      return null;
    }
  })();
  return opened;
}
