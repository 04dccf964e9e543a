/**
 * Pyodide's package lock (`pyodide-lock.json`) as the loader reads it: which package provides a
 * top-level module, and what must be loaded, dependencies first, for a set of packages.
 */

/** One package of the lock (the fields we use of Pyodide's LockfilePackage). */
export interface LockEntry {
  name: string;
  version: string;
  file_name: string;
  sha256: string;
  imports: string[];
  depends: string[];
  package_type?: string;
  install_dir?: string;
}

export type LockPackages = Record<string, LockEntry>;

/** PEP 503's normalised name: the lock's keys and `depends` use it. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

function isEntry(value: unknown): value is LockEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  const strings = ['name', 'version', 'file_name', 'sha256'].every(
    (key) => typeof entry[key] === 'string',
  );
  const lists = ['imports', 'depends'].every(
    (key) =>
      Array.isArray(entry[key]) && (entry[key] as unknown[]).every((x) => typeof x === 'string'),
  );
  return strings && lists;
}

/** The `packages` of a lock file's JSON text; entries that are not well formed are left out. */
export function parseLockPackages(text: string): LockPackages {
  const parsed = JSON.parse(text) as { packages?: unknown };
  const packages = parsed.packages;
  if (typeof packages !== 'object' || packages === null) {
    throw new Error('not a Pyodide lock file (no "packages")');
  }
  const result: LockPackages = {};
  for (const entry of Object.values(packages as Record<string, unknown>)) {
    if (!isEntry(entry)) continue;
    // A file name is a bare name in the package base: no paths, no URLs.
    if (entry.file_name.includes('/') || entry.file_name.includes('\\')) continue;
    result[normalizeName(entry.name)] = entry;
  }
  return result;
}

/**
 * The bundled lock with the package base's additions. Bundled entries win: a mirror cannot
 * change the file or hash of a package the bundled lock names, only add packages.
 */
export function mergeLocks(bundled: LockPackages, extra: LockPackages): LockPackages {
  const merged: LockPackages = {};
  for (const [key, entry] of Object.entries(bundled)) merged[normalizeName(key)] = entry;
  for (const [key, entry] of Object.entries(extra)) merged[normalizeName(key)] ??= entry;
  return merged;
}

export class PackageIndex {
  private readonly byModule = new Map<string, LockEntry>();

  constructor(readonly packages: LockPackages) {
    for (const entry of Object.values(packages)) {
      // No two packages of Pyodide's lock share a module; should one, the first keeps it.
      for (const module of entry.imports) {
        if (!this.byModule.has(module)) this.byModule.set(module, entry);
      }
    }
  }

  get(name: string): LockEntry | undefined {
    return this.packages[normalizeName(name)];
  }

  /** The package whose `imports` name this top-level module. */
  packageFor(module: string): LockEntry | undefined {
    return this.byModule.get(module);
  }

  /**
   * `roots` and everything they depend on, each after its dependencies (the order to install
   * them), skipping those `done` says are already there (and not walking below them).
   */
  closure(roots: LockEntry[], done: (entry: LockEntry) => boolean): LockEntry[] {
    const order: LockEntry[] = [];
    const seen = new Set<string>();
    const visit = (entry: LockEntry) => {
      const key = normalizeName(entry.name);
      if (seen.has(key)) return;
      seen.add(key);
      if (done(entry)) return;
      for (const dependency of entry.depends) {
        const found = this.get(dependency);
        if (found) visit(found);
      }
      order.push(entry);
    };
    roots.forEach(visit);
    return order;
  }
}
