/**
 * `%pip install` in a Python cell, run before the cell (as the imports are loaded): names
 * gpubook provides itself are built in; Pyodide's packages load through the lock; anything else
 * is installed from PyPI if it has a pure-Python wheel (`py3-none-any`): the newest such release
 * (or the pinned `==version`), its sha256 from PyPI's JSON API checked by the page, its
 * `Requires-Dist` without markers installed the same way first, the wheel unpacked into
 * site-packages. micropip would do this, but it is not among the files we serve.
 */
import { unzipSync } from 'fflate';
import type { PyodideAPI } from 'pyodide';
import type { PyProxy } from 'pyodide/ffi';
import type { StreamName } from '../../protocol';
import { shortReason } from './failure-message';
import { PackageFetchError } from './fetch-verified';
import { normalizeName } from './lock';
import type { PackageLoader, ShowProgress } from './package-loader';
import type { PackageFiles } from './package-files';
import type { PipInstall, PipRequirement } from './pip-line';

/** Packages gpubook ships as its own Python packages (src/api/python), over its engine. */
export const BUILT_IN = new Set([
  'torch',
  'torchvision',
  'torchmetrics',
  'torchkeras',
  'tqdm',
  'tensorflow',
  'keras',
]);

export const PYPI = 'https://pypi.org/';

export interface PipHost {
  py: PyodideAPI;
  loader: PackageLoader;
  files: PackageFiles;
  write(name: StreamName, text: string): void;
  show: ShowProgress;
  signal: AbortSignal;
}

interface PyPIFile {
  filename: string;
  url: string;
  digests: { sha256?: string };
  yanked?: boolean;
}

interface PyPIProject {
  info: { name: string; version: string };
  releases?: Record<string, PyPIFile[]>;
  urls?: PyPIFile[];
}

const PURE_WHEEL = /-(py3|py2\.py3)-none-any\.whl$/;

/** Release versions, newest first; pre-releases (letters) after every final release. */
export function newestFirst(versions: string[]): string[] {
  const parts = (v: string) => v.split(/[.+-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : -1));
  const pre = (v: string) => /[a-z]/i.test(v);
  return [...versions].sort((a, b) => {
    if (pre(a) !== pre(b)) return pre(a) ? 1 : -1;
    const [x, y] = [parts(a), parts(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      const d = (y[i] ?? 0) - (x[i] ?? 0);
      if (d !== 0) return d;
    }
    return 0;
  });
}

/** `Requires-Dist` names of a wheel's METADATA that apply always (no marker, so no extra). */
export function unconditionalRequirements(metadata: string): string[] {
  const names: string[] = [];
  for (const line of metadata.split(/\r?\n/)) {
    if (line === '') break; // the body (the long description) starts after a blank line
    const match = /^Requires-Dist:\s*([A-Za-z0-9][A-Za-z0-9._-]*)([^;]*)$/i.exec(line);
    if (match) names.push(match[1]);
  }
  return names;
}

export class PipInstaller {
  /** Normalised names handled during this `%pip` line (dependency cycles end here). */
  private readonly seen = new Set<string>();

  constructor(private readonly host: PipHost) {}

  async run(pip: PipInstall): Promise<void> {
    for (const arg of pip.unsupported) {
      this.err(`gpubook's %pip installs packages by name only; \`${arg}\` is not supported.`);
    }
    const installed: string[] = [];
    for (const requirement of pip.requirements) {
      await this.install(requirement, installed);
    }
    if (installed.length > 0) this.out(`Successfully installed ${installed.join(' ')}`);
  }

  private out(text: string): void {
    this.host.write('stdout', `${text}\n`);
  }

  private err(text: string): void {
    this.host.write('stderr', `ERROR: ${text}\n`);
  }

  private async install(requirement: PipRequirement, installed: string[]): Promise<boolean> {
    const { name, version } = requirement;
    const key = normalizeName(name);
    if (this.seen.has(key)) return true;
    this.seen.add(key);
    if (BUILT_IN.has(key)) {
      this.out(
        `${name} is built into gpubook (over its own engine): import it, nothing to install.`,
      );
      return true;
    }
    const entry = await this.host.loader.packageNamed(name, this.host.signal);
    if (entry) {
      if (version && version !== entry.version) {
        this.out(`${name}: Pyodide's package is version ${entry.version}, not ${version}.`);
      }
      const failed = await this.host.loader.loadEntries([entry], this.host.show, this.host.signal);
      const failure = failed.get(key);
      if (failure) {
        this.err(`could not load ${entry.name} ${entry.version}: ${shortReason(failure)}.`);
        return false;
      }
      this.out(`${entry.name} ${entry.version} is loaded (one of Pyodide's packages).`);
      return true;
    }
    const have = this.installedVersion(name);
    if (have !== null && (version === null || version === have)) {
      this.out(`Requirement already satisfied: ${name} (${have})`);
      return true;
    }
    return this.fromPyPI(requirement, installed);
  }

  private async fromPyPI(requirement: PipRequirement, installed: string[]): Promise<boolean> {
    const { name, version } = requirement;
    const project = await this.fetchJson(name);
    if (!project) return false;
    const releases = project.releases ?? { [project.info.version]: project.urls ?? [] };
    const candidates = version ? [version] : newestFirst(Object.keys(releases));
    let chosen: { version: string; file: PyPIFile } | null = null;
    for (const candidate of candidates) {
      const file = (releases[candidate] ?? []).find(
        (f) => !f.yanked && PURE_WHEEL.test(f.filename),
      );
      if (file) {
        chosen = { version: candidate, file };
        break;
      }
    }
    if (!chosen) {
      const which = version ? `${name}==${version}` : name;
      this.err(
        `no pure-Python wheel (py3-none-any) of ${which} on PyPI. gpubook's %pip installs only ` +
          `those; packages with compiled code must be among Pyodide's packages.`,
      );
      return false;
    }
    const { file } = chosen;
    let bytes: Uint8Array;
    try {
      const got = await this.host.files.fetchPyPI?.(
        file.url,
        file.digests.sha256 ?? null,
        () => {},
      );
      if (!got) throw new PackageFetchError(file.url, 'refused', 'this kernel cannot reach PyPI');
      bytes = got.bytes;
    } catch (error) {
      if (this.host.signal.aborted) throw error;
      this.err(`could not download ${file.filename}: ${describe(error)}`);
      return false;
    }
    const metadata = readMetadata(bytes);
    for (const dependency of unconditionalRequirements(metadata)) {
      const ok = await this.install(
        { spec: dependency, name: dependency, version: null },
        installed,
      );
      if (!ok) {
        this.err(`${name} ${chosen.version} needs ${dependency}, which could not be installed.`);
        return false;
      }
    }
    this.host.py.unpackArchive(bytes, 'wheel', { extractDir: this.sitePackages() });
    pyEval(this.host.py, 'import importlib\nimportlib.invalidate_caches()');
    installed.push(`${project.info.name}-${chosen.version}`);
    return true;
  }

  private async fetchJson(name: string): Promise<PyPIProject | null> {
    const url = `${PYPI}pypi/${encodeURIComponent(name)}/json`;
    try {
      const got = await this.host.files.fetchPyPI?.(url, null, () => {});
      if (!got) throw new PackageFetchError(url, 'refused', 'this kernel cannot reach PyPI');
      return JSON.parse(new TextDecoder().decode(got.bytes)) as PyPIProject;
    } catch (error) {
      if (this.host.signal.aborted) throw error;
      if (error instanceof PackageFetchError && error.status === 404) {
        this.err(`no project named ${name} on PyPI, nor among Pyodide's packages.`);
      } else this.err(`could not ask PyPI about ${name}: ${describe(error)}`);
      return null;
    }
  }

  private installedVersion(name: string): string | null {
    const version = pyEval(
      this.host.py,
      `import importlib.metadata as _m\ntry:\n    _v = _m.version(${JSON.stringify(name)})\nexcept _m.PackageNotFoundError:\n    _v = None\n_v`,
    );
    return typeof version === 'string' ? version : null;
  }

  private sitePackages(): string {
    return String(pyEval(this.host.py, 'import site\nsite.getsitepackages()[0]'));
  }
}

/** Runs `code` in a namespace of its own (not the notebook's) and returns its last value. */
function pyEval(py: PyodideAPI, code: string): unknown {
  const namespace = py.toPy({}) as PyProxy;
  try {
    return py.runPython(code, { globals: namespace });
  } finally {
    namespace.destroy();
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The wheel's `*.dist-info/METADATA` text ('' if it has none). */
function readMetadata(wheel: Uint8Array): string {
  const files = unzipSync(wheel, {
    filter: (file) => /^[^/]+\.dist-info\/METADATA$/.test(file.name),
  });
  const [data] = Object.values(files);
  return data ? new TextDecoder().decode(data) : '';
}
