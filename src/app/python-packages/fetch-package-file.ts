/**
 * The page's answer to the kernel worker's `fetch-package-file`: a bare file name resolved against
 * the package base from the app's settings (anything else is refused), served from the package
 * cache when a verified copy is there, else fetched with its sha256 checked against the lock and
 * then kept. The base's lock file (no hash) is fetched network-first, the cached copy serving
 * offline, so a mirror's lock stays current while it is reachable.
 *
 * `%pip install` (source 'pypi') names a URL instead: only PyPI's JSON API
 * (`https://pypi.org/pypi/NAME[/VERSION]/json`, network-first like the lock) and its wheels
 * (`https://files.pythonhosted.org/packages/…`, which must come with the API's sha256) are
 * fetched; PyPI never replaces a released file, so a verified wheel is kept like the base's.
 */
import type { PackageFileAnswer, PackageFileRequest } from '../../kernel/client';
import {
  fetchVerified,
  PackageFetchError,
  sha256Hex,
} from '../../kernel/python/packages/fetch-verified';
import type { PackageCache } from './package-cache';

/** A file name of the base's own folder: no path, no URL, no leading dot. */
export const PACKAGE_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;

export interface PackageFetchContext {
  /** The package base URL (settings; a checked http(s) folder ending in `/`). */
  base: string;
  cache: PackageCache | null;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
}

type Progress = (loaded: number, total: number | null) => void;

const PYPI_JSON = /^\/pypi\/[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9][A-Za-z0-9._+!-]*)?\/json$/;
const PYPI_FILE = /^\/packages\/[A-Za-z0-9/._+-]+$/;

type Refusal = Extract<PackageFileAnswer, { ok: false }>;

function refused(message: string): Refusal {
  return { ok: false, url: '', reason: 'refused', message };
}

/** The absolute URL the request may fetch, or the refusal. */
export function packageFileUrl(
  { fileName, sha256, source, url }: PackageFileRequest,
  base: string,
): { ok: true; url: string } | Refusal {
  if (source === 'pypi') {
    let parsed: URL;
    try {
      parsed = new URL(url ?? '');
    } catch {
      return refused(`refused to fetch ${JSON.stringify(url)}: not a URL`);
    }
    const plain =
      parsed.protocol === 'https:' &&
      !parsed.username &&
      !parsed.password &&
      !parsed.port &&
      !parsed.search &&
      !parsed.hash &&
      !parsed.pathname.includes('..');
    if (plain && parsed.hostname === 'pypi.org' && PYPI_JSON.test(parsed.pathname)) {
      return { ok: true, url: parsed.href };
    }
    if (plain && parsed.hostname === 'files.pythonhosted.org' && PYPI_FILE.test(parsed.pathname)) {
      if (sha256 === null) return refused(`refused to fetch ${parsed.href}: no sha256 to check it`);
      return { ok: true, url: parsed.href };
    }
    return refused(
      `refused to fetch ${JSON.stringify(url)}: %pip fetches only PyPI's JSON API (https://pypi.org/pypi/…/json) and its files (https://files.pythonhosted.org/packages/…)`,
    );
  }
  if (!PACKAGE_FILE_NAME.test(fileName)) {
    return refused(
      `refused to fetch ${JSON.stringify(fileName)}: only a file name of the package base is fetched, not a path or URL`,
    );
  }
  return { ok: true, url: new URL(fileName, base).href };
}

/** At most one progress report per `intervalMs`, but always the first and the last. */
export function throttledProgress(onProgress: Progress, intervalMs = 100): Progress {
  let last = -Infinity;
  return (loaded, total) => {
    const now = Date.now();
    if (loaded === 0 || loaded === total || now - last >= intervalMs) {
      last = now;
      onProgress(loaded, total);
    }
  };
}

/** The bytes as one ArrayBuffer of their own (to transfer to the worker). */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole && bytes.buffer instanceof ArrayBuffer ? bytes.buffer : bytes.slice().buffer;
}

async function fromCache(
  cache: PackageCache | null,
  url: string,
  sha256: string | null,
): Promise<ArrayBuffer | null> {
  const response = await cache?.match(url).catch(() => undefined);
  if (!response) return null;
  const bytes = await response.arrayBuffer();
  // Kept only verified, but a lock from another mirror may name other bytes at the same URL.
  if (sha256 !== null && (await sha256Hex(new Uint8Array(bytes))) !== sha256.toLowerCase()) {
    await cache?.delete(url).catch(() => false);
    return null;
  }
  return bytes;
}

async function keep(cache: PackageCache | null, url: string, bytes: Uint8Array): Promise<void> {
  if (!cache) return;
  const headers = {
    'Content-Type': 'application/octet-stream',
    'Content-Length': `${bytes.length}`,
  };
  // A full disk leaves the file uncached, not the import failed.
  await cache.put(url, new Response(bytes.slice(), { headers })).catch((error: unknown) => {
    console.warn(`Could not keep ${url} for offline use`, error);
  });
}

function failure(error: unknown, url: string): PackageFileAnswer {
  if (error instanceof PackageFetchError) {
    return { ok: false, url: error.url, reason: error.reason, message: error.message };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, url, reason: 'offline', message: `could not fetch ${url}: ${message}` };
}

export async function fetchPackageFile(
  request: PackageFileRequest,
  onProgress: Progress,
  context: PackageFetchContext,
): Promise<PackageFileAnswer> {
  const resolved = packageFileUrl(request, context.base);
  if (!resolved.ok) return resolved;
  const { url } = resolved;
  const { sha256 } = request;
  const { cache } = context;
  const progress = throttledProgress(onProgress);

  if (sha256 !== null) {
    const cached = await fromCache(cache, url, sha256);
    if (cached) return { ok: true, bytes: cached, url, fromCache: true };
  }
  try {
    const bytes = await fetchVerified(url, sha256, progress, { fetch: context.fetch });
    await keep(cache, url, bytes);
    return { ok: true, bytes: ownBuffer(bytes), url, fromCache: false };
  } catch (error) {
    if (sha256 === null) {
      // The lock (or PyPI's JSON): the last copy fetched serves while it cannot be reached.
      const cached = await fromCache(cache, url, null);
      if (cached) return { ok: true, bytes: cached, url, fromCache: true };
    }
    const answer = failure(error, url);
    if (!answer.ok && answer.reason === 'offline') {
      answer.message += " (and this browser's package cache has no copy)";
    }
    return answer;
  }
}
