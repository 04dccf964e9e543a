/**
 * The app setting "Python package base URL": where the page fetches Python packages (wheels named
 * in Pyodide's lock, and the lock itself) for the kernel. It lives in the page's localStorage on
 * purpose: the kernel worker, which runs notebook code, cannot read or change it, and nothing in a
 * link sets it. The default is Pyodide's CDN folder for the version we bundle.
 */
import { version as pyodideVersion } from 'pyodide/package.json';

/** The bundled Pyodide's version (its npm package), e.g. `314.0.7`. */
export const PYODIDE_VERSION: string = pyodideVersion;

export const DEFAULT_PACKAGE_BASE = `https://cdn.jsdelivr.net/pyodide/v${PYODIDE_VERSION}/full/`;

const STORAGE_KEY = 'gpubook.pythonPackageBase';

export type PackageBaseCheck = { ok: true; url: string } | { ok: false; message: string };

/**
 * A valid base is an absolute http(s) URL of a folder (ending in `/`, so file names resolve inside
 * it), with no credentials, query or fragment (which would ride along with every file name).
 */
export function checkPackageBase(text: string): PackageBaseCheck {
  const trimmed = text.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, message: 'Not a URL: write it whole, e.g. https://example.org/pyodide/' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, message: `Only http:// and https:// addresses work, not ${url.protocol}` };
  }
  if (url.username || url.password) {
    return { ok: false, message: 'The address must not carry a user name or password' };
  }
  if (url.search || url.hash || trimmed.includes('?') || trimmed.includes('#')) {
    return { ok: false, message: 'The address must not have a query (?…) or fragment (#…)' };
  }
  if (!url.pathname.endsWith('/')) {
    return { ok: false, message: 'The address must end with "/" (it is a folder of files)' };
  }
  return { ok: true, url: url.href };
}

/** localStorage, or null where the browser refuses it (some private windows, Node tests). */
function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The base in use: the saved one if it is (still) valid, else the default. */
export function readPackageBase(store: Storage | null = storage()): string {
  const saved = store?.getItem(STORAGE_KEY) ?? null;
  if (saved === null) return DEFAULT_PACKAGE_BASE;
  const check = checkPackageBase(saved);
  return check.ok ? check.url : DEFAULT_PACKAGE_BASE;
}

const listeners = new Set<() => void>();

/** Calls `listener` when the base changes (in this tab or another). */
export function onPackageBaseChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE_KEY || event.key === null) for (const l of listeners) l();
  });
}

/** Saves a base (which must pass checkPackageBase); the default is stored as "no setting". */
export function savePackageBase(url: string, store: Storage | null = storage()): void {
  const check = checkPackageBase(url);
  if (!check.ok) throw new Error(check.message);
  if (!store) throw new Error('This browser does not let gpubook keep settings (no localStorage)');
  if (check.url === DEFAULT_PACKAGE_BASE) store.removeItem(STORAGE_KEY);
  else store.setItem(STORAGE_KEY, check.url);
  for (const l of listeners) l();
}
