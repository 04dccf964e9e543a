/**
 * Loading Pyodide packages before a cell runs, on the real Pyodide from node_modules and a real
 * kernel session: the session asks for files with fetch-package-file events, answered here as
 * the page answers them (fetchVerified against a local HTTP server that serves a package base:
 * its own pyodide-lock.json adding test wheels built below, and the wheels).
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellOutput, DoneEvent, WorkerEvent } from '../../protocol';
import type { KernelSession } from '../../session';
import { startNodePython, startSession } from '../testing/node-python';
import { PackageFetchError } from './fetch-verified';
import type { LockEntry } from './lock';
import { packageFilesOver } from './package-files';

/** A pure-Python wheel: `<name>/__init__.py` and its .dist-info (METADATA, WHEEL, RECORD). */
function wheel(
  name: string,
  version: string,
  init: string,
  metadata = '',
): { fileName: string; bytes: Buffer } {
  const info = `${name}-${version}.dist-info`;
  const files: Record<string, Uint8Array> = {
    [`${name}/__init__.py`]: strToU8(init),
    [`${info}/METADATA`]: strToU8(
      `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n${metadata}\nA description.\nRequires-Dist: not-a-header\n`,
    ),
    [`${info}/WHEEL`]: strToU8(
      'Wheel-Version: 1.0\nGenerator: gpubook-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n',
    ),
  };
  const record = Object.entries(files).map(([path, data]) => {
    const hash = createHash('sha256').update(data).digest('base64url');
    return `${path},sha256=${hash},${data.length}`;
  });
  files[`${info}/RECORD`] = strToU8(`${record.join('\n')}\n${info}/RECORD,,\n`);
  return {
    fileName: `${name}-${version}-py3-none-any.whl`,
    bytes: Buffer.from(zipSync(files)),
  };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const dep = wheel('gbtestdep', '1.0', 'ORDER = ["dep"]\n');
const pkg = wheel(
  'gbtestpkg',
  '2.0',
  'import gbtestdep\ngbtestdep.ORDER.append("pkg")\nVALUE = 42\n',
);
const bad = wheel('gbbadhash', '1.0', 'X = 1\n');
// PyPI's: gbpure needs gbpuredep (always) and gbextra (only for an extra, so not installed).
const pure = wheel(
  'gbpure',
  '1.0',
  'import gbpuredep\nX = gbpuredep.Y + 1\n',
  'Requires-Dist: gbpuredep (>=0.1)\nRequires-Dist: gbextra ; extra == "x"\n',
);
const pureNewer = wheel('gbpure', '2.0b1', 'X = "pre-release"\n');
const pureDep = wheel('gbpuredep', '0.5', 'Y = 41\n');
const files = new Map([dep, pkg, bad, pure, pureNewer, pureDep].map((w) => [w.fileName, w.bytes]));

/** A PyPI JSON API answer; files under /files/ stand for files.pythonhosted.org. */
function project(
  name: string,
  releases: Record<string, Array<{ fileName: string; bytes?: Buffer }>>,
) {
  const latest = Object.keys(releases).at(-1) ?? '';
  const asFile = (file: { fileName: string; bytes?: Buffer }) => ({
    filename: file.fileName,
    url: `https://files.pythonhosted.org/packages/ab/cd/${file.fileName}`,
    digests: { sha256: file.bytes ? sha256(file.bytes) : '00'.repeat(32) },
    yanked: false,
  });
  return {
    info: { name, version: latest },
    releases: Object.fromEntries(
      Object.entries(releases).map(([version, list]) => [version, list.map(asFile)]),
    ),
  };
}
const pypi: Record<string, unknown> = {
  gbpure: project('gbpure', {
    '1.0': [pure],
    // Newer, but no pure-Python wheel (an sdist and a compiled wheel): skipped.
    '1.2': [
      { fileName: 'gbpure-1.2.tar.gz' },
      { fileName: 'gbpure-1.2-cp311-cp311-manylinux_x86_64.whl' },
    ],
    '2.0b1': [pureNewer],
  }),
  gbpuredep: project('gbpuredep', { '0.5': [pureDep] }),
  gbcompiled: project('gbcompiled', {
    '1.0': [{ fileName: 'gbcompiled-1.0-cp311-cp311-win_amd64.whl' }],
  }),
};

function entry(name: string, version: string, file: string, hash: string, depends: string[] = []) {
  return {
    name,
    version,
    file_name: file,
    sha256: hash,
    imports: [name],
    depends,
    package_type: 'package',
    install_dir: 'site',
  } satisfies LockEntry;
}

const lock = {
  info: {},
  packages: {
    gbtestdep: entry('gbtestdep', '1.0', dep.fileName, sha256(dep.bytes)),
    gbtestpkg: entry('gbtestpkg', '2.0', pkg.fileName, sha256(pkg.bytes), ['gbtestdep']),
    gbbadhash: entry('gbbadhash', '1.0', bad.fileName, 'ab'.repeat(32)),
    gbmissing: entry('gbmissing', '3.1', 'gbmissing-3.1-py3-none-any.whl', 'cd'.repeat(32)),
    // A mirror cannot replace a package the bundled lock names.
    numpy: entry('numpy', '0.0.1', pkg.fileName, sha256(pkg.bytes)),
  },
};

let server: Server;
let base: string;
let origin: string;
const served: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '';
    const name = path.replace(/^\/(base|files)\/.*?([^/]*)$/, '$2');
    served.push(name);
    const json = /^\/pypi\/pypi\/([^/]+)\/json$/.exec(path);
    const body = json
      ? pypi[json[1]]
        ? Buffer.from(JSON.stringify(pypi[json[1]]))
        : undefined
      : name === 'pyodide-lock.json'
        ? Buffer.from(JSON.stringify(lock))
        : files.get(name);
    if (!body) {
      response.writeHead(404, 'Not Found');
      response.end();
      return;
    }
    response.writeHead(200, { 'content-length': String(body.length) });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  base = `${origin}/base/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Answers the session's fetch-package-file events as the page does, from `packageBase`. */
function pageFetcher(packageBase: () => string) {
  return (event: WorkerEvent, session: KernelSession) => {
    if (event.type !== 'fetch-package-file') return;
    // A page whose fetch never ends (a stalled connection).
    if (packageBase() === 'stalled') return;
    const { requestId } = event;
    const files = packageFilesOver(packageBase(), (url) =>
      url
        .replace('https://pypi.org/', `${origin}/pypi/`)
        .replace('https://files.pythonhosted.org/', `${origin}/files/`),
    );
    const progress = (loaded: number, total: number | null) =>
      session.handle({ type: 'package-progress', requestId, loaded, total });
    const fetching =
      event.source === 'pypi' && event.url
        ? files.fetchPyPI?.(event.url, event.sha256, progress)
        : files.fetch(event.fileName, event.sha256, progress);
    fetching?.then(
      (file) =>
        session.handle({
          type: 'package-fetched',
          requestId,
          bytes: file.bytes.slice().buffer,
          url: file.url,
          fromCache: false,
        }),
      (error: unknown) => {
        const failure = error as PackageFetchError;
        session.handle({
          type: 'package-failed',
          requestId,
          url: failure.url,
          reason: failure.reason,
          message: failure.message,
        });
      },
    );
  };
}

/** The text a display output shows at the end (its last update, if any). */
function finalText(events: WorkerEvent[], cellId: string, output: CellOutput): string {
  if (output.kind !== 'display') return '';
  let text = String(output.data['text/plain']);
  for (const event of events) {
    if (event.type === 'update-display' && event.cellId === cellId) {
      if (event.displayId === output.displayId) text = String(event.data['text/plain']);
    }
  }
  return text;
}

function errorOf(outputs: CellOutput[]) {
  const error = outputs.find((o) => o.kind === 'error');
  if (error?.kind !== 'error') throw new Error(`no error in ${JSON.stringify(outputs)}`);
  return error;
}

describe('Pyodide packages before a cell runs', () => {
  let packageBase = '';
  const session = startSession({
    python: startNodePython,
    onEvent: pageFetcher(() => packageBase),
  });
  const fetchesIn = (cellId: string) => {
    const start = session.events.findIndex((e) => e.type === 'started' && e.cellId === cellId);
    const end = session.events.findIndex((e) => e.type === 'done' && e.cellId === cellId);
    return session.events
      .slice(start, end)
      .flatMap((e) => (e.type === 'fetch-package-file' ? [e.fileName] : []));
  };
  let done: DoneEvent;

  beforeAll(() => {
    packageBase = base;
  });

  it('fetches a package and its dependency first, shows progress before the output', async () => {
    done = await session.run(
      'import gbtestpkg\nimport gbtestdep\nprint(gbtestpkg.VALUE, gbtestdep.ORDER)',
    );
    expect(done.status).toBe('ok');
    expect(fetchesIn('c1')).toEqual(['pyodide-lock.json', dep.fileName, pkg.fileName]);
    const outputs = session.outputsOf('c1');
    expect(outputs.map((o) => o.kind)).toEqual(['display', 'stream']);
    expect(finalText(session.events, 'c1', outputs[0])).toBe(
      `Loaded gbtestdep 1.0 (${dep.bytes.length} B)\nLoaded gbtestpkg 2.0 (${pkg.bytes.length} B)`,
    );
    expect(outputs[1]).toMatchObject({ kind: 'stream', text: "42 ['dep', 'pkg']\n" });
  }, 120_000);

  it('does not fetch an imported package again', async () => {
    done = await session.run('import gbtestpkg\ngbtestpkg.VALUE');
    expect(done.status).toBe('ok');
    expect(fetchesIn('c2')).toEqual([]);
    expect(session.outputsOf('c2').map((o) => o.kind)).toEqual(['result']);
  });

  it('raises ModuleNotFoundError naming the package, URL and integrity mismatch', async () => {
    done = await session.run('print("before")\nimport gbbadhash');
    expect(done.status).toBe('error');
    const outputs = session.outputsOf('c3');
    expect(finalText(session.events, 'c3', outputs[0])).toBe(
      'Could not load gbbadhash 1.0: integrity mismatch',
    );
    const error = errorOf(outputs);
    expect(error.ename).toBe('ModuleNotFoundError');
    expect(error.evalue).toContain("No module named 'gbbadhash'");
    expect(error.evalue).toContain('gbbadhash 1.0');
    expect(error.evalue).toContain(`${base}${bad.fileName}`);
    expect(error.evalue).toContain('integrity');
    expect(error.evalue).toContain(`expected sha256 ${'ab'.repeat(32)}, got ${sha256(bad.bytes)}`);
    expect(error.evalue).toContain('Settings');
    expect(error.traceback.join('\n')).toContain('File "Cell In[3]", line 2');
  });

  it('says HTTP 404 for a file the base does not have', async () => {
    done = await session.run('import gbmissing');
    const error = errorOf(session.outputsOf('c4'));
    expect(error.evalue).toContain('gbmissing 3.1');
    expect(error.evalue).toContain(`${base}gbmissing-3.1-py3-none-any.whl`);
    expect(error.evalue).toContain('HTTP 404');
  });

  it('keeps the clear error for a module in no lock', async () => {
    done = await session.run('import no_such_module_here');
    const error = errorOf(session.outputsOf('c5'));
    expect(error.ename).toBe('ModuleNotFoundError');
    expect(error.evalue).toMatch(
      /^No module named 'no_such_module_here': it is not among Pyodide's packages/,
    );
    expect(error.evalue).toContain('%pip install');
  });

  it('%pip install: built-in names, PyPI pure-Python wheels with their dependencies', async () => {
    done = await session.run(
      [
        '%pip install -q torch gbpure',
        'import gbpure, gbpuredep, importlib.metadata as m',
        'print(gbpure.X, m.version("gbpure"), m.version("gbpuredep"))',
      ].join('\n'),
    );
    expect(done.status).toBe('ok');
    const text = session
      .outputsOf('c6')
      .map((o) => (o.kind === 'stream' ? o.text : ''))
      .join('');
    expect(text).toBe(
      'torch is built into gpubook (over its own engine): import it, nothing to install.\n' +
        'Successfully installed gbpuredep-0.5 gbpure-1.0\n' +
        '42 1.0 0.5\n',
    );
    // Wheels came from PyPI's file host (the page checks their sha256), never from the base.
    const asked = session.events.flatMap((e) =>
      e.type === 'fetch-package-file' && e.source === 'pypi' ? [e.url] : [],
    );
    expect(asked).toEqual([
      'https://pypi.org/pypi/gbpure/json',
      `https://files.pythonhosted.org/packages/ab/cd/${pure.fileName}`,
      'https://pypi.org/pypi/gbpuredep/json',
      `https://files.pythonhosted.org/packages/ab/cd/${pureDep.fileName}`,
    ]);
    expect(served).not.toContain('gbextra');
  });

  it('%pip install: a lock package loads through the lock; errors say why', async () => {
    done = await session.run(
      '%pip install gbtestdep nosuchproject gbcompiled\n!pip install gbmissing\nprint("ran")',
    );
    expect(done.status).toBe('ok');
    const outputs = session.outputsOf('c7');
    const out = outputs.map((o) => (o.kind === 'stream' ? `${o.name}:${o.text}` : '')).join('');
    expect(out).toContain("stdout:gbtestdep 1.0 is loaded (one of Pyodide's packages).");
    expect(out).toContain('stderr:ERROR: no project named nosuchproject on PyPI');
    expect(out).toContain('ERROR: no pure-Python wheel (py3-none-any) of gbcompiled');
    expect(out).toContain('stderr:ERROR: could not load gbmissing 3.1: HTTP 404');
    expect(out).toMatch(/stdout:ran\n$/);
    const display = outputs.find((o) => o.kind === 'display');
    expect(display && finalText(session.events, 'c7', display)).toBe(
      'Could not load gbmissing 3.1: HTTP 404',
    );
  });

  it('an interrupt while a package loads ends the cell as interrupted; the next cell runs', async () => {
    packageBase = 'stalled';
    const running = session.run('import gbpure\nimport numpy\nprint("not reached")');
    await expect
      .poll(() =>
        session.events.some(
          (e) => e.type === 'fetch-package-file' && e.fileName.startsWith('numpy-'),
        ),
      )
      .toBe(true);
    session.session.handle({ type: 'interrupt' });
    done = await running;
    expect(done.status).toBe('interrupted');
    const outputs = session.outputsOf('c8');
    expect(errorOf(outputs).ename).toBe('KeyboardInterrupt');
    expect(outputs.some((o) => o.kind === 'stream')).toBe(false);
    packageBase = base;
    expect((await session.run('print("next")')).status).toBe('ok');
    expect(session.outputsOf('c9')).toMatchObject([{ kind: 'stream', text: 'next\n' }]);
  });

  it('says the package server is unreachable when the base is offline', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    packageBase = `http://127.0.0.1:${port}/`;
    // numpy is in the bundled lock: the mirror's entry for it (above) was never used.
    done = await session.run('import numpy');
    const error = errorOf(session.outputsOf('c10'));
    expect(error.evalue).toMatch(
      /^No module named 'numpy': gpubook could not load the package numpy 2\.4\.6/,
    );
    expect(error.evalue).toContain(`http://127.0.0.1:${port}/numpy-2.4.6-`);
    expect(error.evalue).toContain('unreachable');
    expect(error.evalue).toContain('Make Python packages available offline');
  });
});
