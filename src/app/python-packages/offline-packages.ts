/**
 * "Make Python packages available offline": the packages a student most often imports (numpy,
 * pandas, matplotlib, scikit-learn) and everything they depend on, as the package base's lock
 * lists them, fetched into the package cache the kernel's imports read first. The lock gives no
 * sizes: a HEAD request per file asks the base (unknown offline).
 */
import { fetchPackageFile, type PackageFetchContext } from './fetch-package-file';
import { LOCK_FILE } from './package-cache';
import { normalizeName } from '../../kernel/python/packages/lock';

export const OFFLINE_PACKAGES = ['numpy', 'pandas', 'matplotlib', 'scikit-learn'] as const;

export interface LockEntry {
  name: string;
  fileName: string;
  sha256: string;
  depends: string[];
}

// PEP 503's normal form, the lock's keys and `depends`: the kernel's loader reads the lock by it too.
export { normalizeName };

/** The lock's packages by normal name; throws when it is not a Pyodide lock. */
export function parseLock(value: unknown): Map<string, LockEntry> {
  const packages = (value as { packages?: unknown } | null)?.packages;
  if (typeof packages !== 'object' || packages === null) {
    throw new Error(`${LOCK_FILE} has no "packages"`);
  }
  const entries = new Map<string, LockEntry>();
  for (const [key, raw] of Object.entries(packages as Record<string, unknown>)) {
    const p = raw as Partial<{
      name: unknown;
      file_name: unknown;
      sha256: unknown;
      depends: unknown;
    }>;
    if (
      typeof p.file_name !== 'string' ||
      typeof p.sha256 !== 'string' ||
      !Array.isArray(p.depends) ||
      !p.depends.every((d) => typeof d === 'string')
    ) {
      throw new Error(`${LOCK_FILE}: the entry for ${JSON.stringify(key)} is not a package`);
    }
    const name = typeof p.name === 'string' ? p.name : key;
    entries.set(normalizeName(key), {
      name,
      fileName: p.file_name,
      sha256: p.sha256,
      depends: p.depends as string[],
    });
  }
  return entries;
}

/** The packages named and all they depend on, each once, sorted by name; `missing`: not in the lock. */
export function dependencyClosure(
  lock: ReadonlyMap<string, LockEntry>,
  roots: readonly string[],
): { entries: LockEntry[]; missing: string[] } {
  const seen = new Map<string, LockEntry>();
  const missing: string[] = [];
  const stack = roots.map(normalizeName);
  for (let name = stack.pop(); name !== undefined; name = stack.pop()) {
    if (seen.has(name)) continue;
    const entry = lock.get(name);
    if (!entry) {
      if (!missing.includes(name)) missing.push(name);
      continue;
    }
    seen.set(name, entry);
    stack.push(...entry.depends.map(normalizeName));
  }
  const entries = [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
  return { entries, missing };
}

/** The base's lock as the kernel reads it (network-first, the cached copy offline). */
export async function readBaseLock(context: PackageFetchContext): Promise<Map<string, LockEntry>> {
  const answer = await fetchPackageFile({ fileName: LOCK_FILE, sha256: null }, () => {}, context);
  if (!answer.ok) throw new Error(answer.message);
  return parseLock(JSON.parse(new TextDecoder().decode(answer.bytes)));
}

const fileUrl = (entry: LockEntry, base: string) => new URL(entry.fileName, base).href;

/** Each file's size from a HEAD request (Content-Length), or null when the base does not say. */
export async function fileSizes(
  entries: readonly LockEntry[],
  base: string,
  doFetch: typeof fetch = fetch,
): Promise<(number | null)[]> {
  return inParallel(entries, 6, async (entry) => {
    try {
      const response = await doFetch(fileUrl(entry, base), { method: 'HEAD' });
      const length = Number(response.headers.get('content-length') ?? NaN);
      return response.ok && Number.isFinite(length) && length > 0 ? length : null;
    } catch {
      return null;
    }
  });
}

/** Which files the package cache holds already. */
export async function cachedFiles(
  entries: readonly LockEntry[],
  context: PackageFetchContext,
): Promise<boolean[]> {
  const { cache, base } = context;
  if (!cache) return entries.map(() => false);
  return Promise.all(entries.map(async (e) => (await cache.match(fileUrl(e, base))) !== undefined));
}

async function inParallel<T, R>(
  items: readonly T[],
  width: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i]);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
}

/**
 * Fetches every file of `entries` into the package cache (verified; those cached already are
 * read back and rechecked, not fetched). `onProgress` gets the bytes of the files finished and of
 * the one arriving. Fails on the first file that cannot be had, naming it and why.
 */
export async function makePackagesAvailableOffline(
  entries: readonly LockEntry[],
  context: PackageFetchContext,
  onProgress: (doneBytes: number, doneFiles: number) => void,
): Promise<void> {
  if (!context.cache) {
    throw new Error(
      'This browser gives gpubook no Cache Storage here (a private window?): packages cannot be kept offline.',
    );
  }
  let doneBytes = 0;
  let doneFiles = 0;
  const arriving = new Map<string, number>();
  const report = () =>
    onProgress(doneBytes + [...arriving.values()].reduce((a, b) => a + b, 0), doneFiles);
  let failed = false;
  await inParallel(entries, 3, async (entry) => {
    if (failed) return;
    const answer = await fetchPackageFile(
      { fileName: entry.fileName, sha256: entry.sha256 },
      (loaded) => {
        arriving.set(entry.fileName, loaded);
        report();
      },
      context,
    );
    arriving.delete(entry.fileName);
    if (!answer.ok) {
      failed = true;
      throw new Error(`${entry.name} (${entry.fileName}): ${answer.message}`);
    }
    doneBytes += answer.bytes.byteLength;
    doneFiles += 1;
    report();
  });
}
