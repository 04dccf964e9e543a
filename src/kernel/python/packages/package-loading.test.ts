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
function wheel(name: string, version: string, init: string): { fileName: string; bytes: Buffer } {
  const info = `${name}-${version}.dist-info`;
  const files: Record<string, Uint8Array> = {
    [`${name}/__init__.py`]: strToU8(init),
    [`${info}/METADATA`]: strToU8(`Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n`),
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
const files = new Map([dep, pkg, bad].map((w) => [w.fileName, w.bytes]));

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
const served: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const name = (request.url ?? '').replace(/^\/base\//, '');
    served.push(name);
    const body = name === 'pyodide-lock.json' ? Buffer.from(JSON.stringify(lock)) : files.get(name);
    if (!body) {
      response.writeHead(404, 'Not Found');
      response.end();
      return;
    }
    response.writeHead(200, { 'content-length': String(body.length) });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/base/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Answers the session's fetch-package-file events as the page does, from `packageBase`. */
function pageFetcher(packageBase: () => string) {
  return (event: WorkerEvent, session: KernelSession) => {
    if (event.type !== 'fetch-package-file') return;
    const { requestId } = event;
    packageFilesOver(packageBase())
      .fetch(event.fileName, event.sha256, (loaded, total) =>
        session.handle({ type: 'package-progress', requestId, loaded, total }),
      )
      .then(
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
    const progress = session.events.flatMap((e) =>
      e.type === 'update-display' && e.cellId === 'c1' ? [String(e.data['text/plain'])] : [],
    );
    expect(progress.some((text) => text.includes('Loading gbtestdep 1.0'))).toBe(true);
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

  it('says the package server is unreachable when the base is offline', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    packageBase = `http://127.0.0.1:${port}/`;
    // numpy is in the bundled lock: the mirror's entry for it (above) was never used.
    done = await session.run('import numpy');
    const error = errorOf(session.outputsOf('c6'));
    expect(error.evalue).toMatch(
      /^No module named 'numpy': gpubook could not load the package numpy 2\.4\.6/,
    );
    expect(error.evalue).toContain(`http://127.0.0.1:${port}/numpy-2.4.6-`);
    expect(error.evalue).toContain('unreachable');
    expect(error.evalue).toContain('Make Python packages available offline');
  });
});
