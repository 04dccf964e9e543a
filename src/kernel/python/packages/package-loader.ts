/**
 * Loads the Pyodide packages a cell imports before it runs: its top-level imports
 * (`pyodide.code.find_imports`) that are not importable yet are looked up in the lock (the
 * bundled one plus the package base's additions), their `depends` closure is fetched through the
 * host, dependencies first, and installed by Pyodide's own installer (`loadPackage` on a staged
 * copy of the file), which also sets up shared libraries. A package that cannot be had is
 * recorded with the import guard, whose ModuleNotFoundError then says why.
 */
import type { PyodideAPI } from 'pyodide';
import { failureMessage, shortReason, type PackageFailure } from './failure-message';
import { PackageFetchError } from './fetch-verified';
import {
  mergeLocks,
  normalizeName,
  PackageIndex,
  parseLockPackages,
  type LockEntry,
  type LockPackages,
} from './lock';
import type { PackageFiles } from './package-files';
import { progressText, type PackageProgress } from './progress';

/** A package file put where Pyodide's `loadPackage` can read it; `release` removes it. */
export type StageFile = (
  fileName: string,
  bytes: Uint8Array,
) => Promise<{ url: string; release(): void }>;

/** The cell's one package display: `text` shows it (the first call adds it, the rest update). */
export type ShowProgress = (text: string) => void;

/** What the loader asks of the import guard (modules/_gpubook_import_guard.py). */
export interface ImportGuard {
  /** JSON lists in and out: proxies of Python lists would need destroying. */
  imports_of(code: string): string;
  missing(namesJson: string): string;
  set_failures(json: string): void;
  set_lock_modules(json: string): void;
}

/** `pyodide.loadPackage` installs from a URL only if its last part is `<name>-<version>….whl`. */
export function stagedName(fileName: string): string {
  return fileName.endsWith('.whl') ? fileName : `${fileName}.whl`;
}

export class PackageLoader {
  private index: PackageIndex;
  /** Whether the package base's own lock was read (once per kernel; a failure retries). */
  private baseLockRead = false;
  /** Lock names of the packages this loader installed. */
  private readonly installed = new Set<string>();

  constructor(
    private readonly py: PyodideAPI,
    private readonly files: PackageFiles,
    private readonly stage: StageFile,
    private readonly guard: ImportGuard,
  ) {
    this.index = new PackageIndex(py.lockfile.packages as LockPackages);
    this.tellGuard();
  }

  /** The top-level modules the code imports (none when it does not parse: it will say so). */
  importsOf(code: string): string[] {
    return JSON.parse(this.guard.imports_of(code)) as string[];
  }

  /** Loads what `modules` need; failures are recorded for the import guard, not thrown. */
  async prepare(modules: string[], show: ShowProgress, signal: AbortSignal): Promise<void> {
    const missing = modules.length > 0 ? this.missing(modules) : [];
    const roots: Array<{ module: string; entry: LockEntry }> = [];
    for (const module of missing) {
      const entry = await this.packageFor(module, signal);
      if (entry) roots.push({ module, entry });
    }
    const failed = await this.loadEntries(
      roots.map((root) => root.entry),
      show,
      signal,
    );
    const failures: Record<string, string> = {};
    for (const { module, entry } of roots) {
      const failure = failed.get(normalizeName(entry.name));
      if (failure) failures[module] = failureMessage(module, failure);
    }
    this.guard.set_failures(JSON.stringify(failures));
  }

  /** The lock's package providing top-level `module` (reading the base's lock if need be). */
  async packageFor(module: string, signal: AbortSignal): Promise<LockEntry | undefined> {
    // A module the bundled lock does not know may be one the package base adds.
    if (!this.index.packageFor(module) && !this.baseLockRead) await this.readBaseLock(signal);
    return this.index.packageFor(module);
  }

  /** The lock's package of this name (reading the base's lock if need be). */
  async packageNamed(name: string, signal: AbortSignal): Promise<LockEntry | undefined> {
    if (!this.index.get(name) && !this.baseLockRead) await this.readBaseLock(signal);
    return this.index.get(name);
  }

  /**
   * Loads `roots` and their dependencies that are not there yet, dependencies first, showing
   * progress; the failures by normalised package name (a package whose dependency failed is
   * not tried, and fails naming it).
   */
  async loadEntries(
    roots: LockEntry[],
    show: ShowProgress,
    signal: AbortSignal,
  ): Promise<Map<string, PackageFailure>> {
    const failed = new Map<string, PackageFailure>();
    const order = this.index.closure(roots, (entry) => this.present(entry));
    const states: PackageProgress[] = order.map((entry) => ({
      entry,
      phase: 'waiting',
      loaded: 0,
      total: null,
      fromCache: false,
    }));
    let shown = '';
    const render = () => {
      const text = progressText(states);
      if (text !== shown) show((shown = text));
    };
    if (states.length > 0) render();
    for (const state of states) {
      const { entry } = state;
      const brokenDependency = entry.depends
        .map((name) => failed.get(normalizeName(name)))
        .find((failure) => failure !== undefined);
      const failure = brokenDependency
        ? {
            entry,
            url: '',
            reason: 'dependency' as const,
            detail: '',
            cause: brokenDependency.cause ?? brokenDependency,
          }
        : await this.load(state, render, signal);
      if (failure) {
        failed.set(normalizeName(entry.name), failure);
        state.phase = 'failed';
        state.why = shortReason(failure);
      }
      render();
    }
    return failed;
  }

  /** Fetches and installs one package; its failure, or null when it loaded. */
  private async load(
    state: PackageProgress,
    render: () => void,
    signal: AbortSignal,
  ): Promise<PackageFailure | null> {
    const { entry } = state;
    state.phase = 'loading';
    render();
    let file;
    // Byte counts come per network chunk: the display is updated at most ten times a second.
    let lastShown = 0;
    try {
      file = await abortable(
        this.files.fetch(entry.file_name, entry.sha256, (loaded, total) => {
          state.loaded = loaded;
          state.total = total;
          if (Date.now() - lastShown < 100) return;
          lastShown = Date.now();
          render();
        }),
        signal,
      );
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof PackageFetchError) {
        return { entry, url: error.url, reason: error.reason, detail: error.message };
      }
      return { entry, url: '', reason: 'offline', detail: describe(error) };
    }
    state.fromCache = file.fromCache;
    state.loaded = state.total = file.bytes.length;
    state.phase = 'installing';
    render();
    const errors: string[] = [];
    const staged = await this.stage(stagedName(entry.file_name), file.bytes);
    try {
      const done = await this.py.loadPackage(staged.url, {
        checkIntegrity: false,
        messageCallback: (text) => console.debug(`[pyodide] ${text}`),
        errorCallback: (text) => errors.push(text),
      });
      if (done.length === 0) {
        return { entry, url: file.url, reason: 'install', detail: errors.join(' ') || 'unknown' };
      }
    } catch (error) {
      return { entry, url: file.url, reason: 'install', detail: describe(error) };
    } finally {
      staged.release();
    }
    this.installed.add(normalizeName(entry.name));
    state.phase = 'loaded';
    return null;
  }

  /** The modules of `names` that no finder finds now. */
  private missing(names: string[]): string[] {
    return JSON.parse(this.guard.missing(JSON.stringify(names))) as string[];
  }

  /** Installed already: by this loader, by Pyodide, or importable some other way. */
  private present(entry: LockEntry): boolean {
    const key = normalizeName(entry.name);
    if (this.installed.has(key)) return true;
    if (Object.keys(this.py.loadedPackages).some((name) => normalizeName(name) === key)) {
      return true;
    }
    return entry.imports.length > 0 && this.missing(entry.imports).length === 0;
  }

  private async readBaseLock(signal: AbortSignal): Promise<void> {
    let extra: LockPackages;
    try {
      const file = await abortable(
        this.files.fetch('pyodide-lock.json', null, () => {}),
        signal,
      );
      extra = parseLockPackages(new TextDecoder().decode(file.bytes));
    } catch (error) {
      if (signal.aborted) throw error;
      // No lock at the base (or offline): the bundled one is all there is. Retried next time
      // only when it could not be reached.
      this.baseLockRead = !(error instanceof PackageFetchError && error.reason === 'offline');
      return;
    }
    this.baseLockRead = true;
    this.index = new PackageIndex(mergeLocks(this.index.packages, extra));
    this.tellGuard();
  }

  /** The guard names the package of a module the cell reached without importing it first. */
  private tellGuard(): void {
    const modules: Record<string, string> = {};
    for (const entry of Object.values(this.index.packages)) {
      for (const module of entry.imports) modules[module] ??= `${entry.name} ${entry.version}`;
    }
    this.guard.set_lock_modules(JSON.stringify(modules));
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `promise`, or a rejection as soon as `signal` aborts (the page's fetch itself goes on). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
