/**
 * The Python kernel on the real Pyodide interpreter from node_modules (Node has no JSPI, so
 * nothing here blocks on a promise; the browser side is covered by e2e/python.spec.ts).
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { INTERRUPT_BUFFER_BYTES, PYTHON_SIGNAL_SLOT } from '../protocol';
import { PythonKernel, type PythonCellResult } from './python-kernel';
import { BOUNDED_BUSY_LOOP, interruptFromAnotherThread } from './testing/interrupt-thread';

const indexURL = `${dirname(createRequire(import.meta.url).resolve('pyodide/package.json'))}/`;
const shared = new SharedArrayBuffer(INTERRUPT_BUFFER_BYTES);
const written: Array<[string, string]> = [];
let kernel: PythonKernel;

beforeAll(async () => {
  kernel = await PythonKernel.start({
    importLoader: async () => (await import('pyodide')).loadPyodide,
    indexURL,
    interruptBuffer: new Int32Array(shared, PYTHON_SIGNAL_SLOT * 4, 1),
    globals: {},
    write: (name, text) => written.push([name, text]),
  });
}, 60_000);

async function run(source: string, count = 1): Promise<{ result: PythonCellResult; out: string }> {
  written.length = 0;
  const result = await kernel.run(source, count);
  // Consecutive writes to one stream read as one (print writes its text and its end apart).
  let out = '';
  written.forEach(([name, text], i) => {
    out += (i > 0 && written[i - 1][0] === name ? '' : `${name}:`) + text;
  });
  return { result, out };
}

describe('PythonKernel', () => {
  it('streams print in order and gives the last expression as Out', async () => {
    const { result, out } = await run(
      'import sys\nprint(1 + 1)\nprint("e", file=sys.stderr)\n"x" * 2',
    );
    expect(out).toBe('stdout:2\nstderr:e\n');
    expect(result).toEqual({ status: 'ok', repr: "'xx'" });
    expect((await run('y = 3;')).result).toEqual({ status: 'ok' });
    expect((await run('y * 2  # comment')).result).toEqual({ status: 'ok', repr: '6' });
    expect((await run('y * 2;')).result).toEqual({ status: 'ok' });
  });

  it('names the cell and line in tracebacks and hides the kernel frames', async () => {
    const { result } = await run('def f():\n    return 1 / 0\n\nf()', 7);
    expect(result.status).toBe('error');
    if (result.status !== 'error') return;
    expect(result.ename).toBe('ZeroDivisionError');
    expect(result.evalue).toBe('division by zero');
    const text = result.traceback.join('\n');
    expect(text).toContain('File "Cell In[7]", line 4, in <module>');
    expect(text).toContain('File "Cell In[7]", line 2, in f');
    expect(text).not.toMatch(/_pyodide|pyodide\/|<gpubook|importlib/);
    expect(result.traceback[0]).toBe('Traceback (most recent call last):');
  });

  it('reports a syntax error at the cell line', async () => {
    const { result } = await run('x = 1\nx = = 2', 3);
    expect(result.status === 'error' && result.ename).toBe('SyntaxError');
    expect(result.status === 'error' && result.traceback.join('\n')).toContain(
      'File "Cell In[3]", line 2',
    );
  });

  it('refuses modules it cannot load, with a message that says why', async () => {
    // This kernel has no package source (the worker's asks the page): Pyodide's packages say so.
    for (const name of ['numpy', 'pandas', 'matplotlib', 'no_such_module']) {
      const { result } = await run(`import ${name}`);
      expect(result.status === 'error' && result.ename).toBe('ModuleNotFoundError');
      expect(result.status === 'error' && result.evalue).toMatch(
        name === 'no_such_module'
          ? /^No module named 'no_such_module': it is not among Pyodide's packages.*the Python standard library\.$/
          : new RegExp(
              `^No module named '${name}': gpubook could not load the package ${name} \\d`,
            ),
      );
      expect(result.status === 'error' && result.traceback.join('\n')).not.toContain('micropip');
    }
    // The standard library still imports, and probing for a module is not an error.
    const probe = await run(
      'import json, importlib.util\nimportlib.util.find_spec("numpy") is None',
    );
    expect(probe.result).toEqual({ status: 'ok', repr: 'True' });
    const caught = await run('try:\n    import numpy\nexcept ImportError:\n    ok = 1\nok');
    expect(caught.result).toEqual({ status: 'ok', repr: '1' });
  });

  it('hides the frames of installed packages and lists them as available', async () => {
    // A package installed as ours are: beside the standard library, in site-packages.
    const setup = await run(
      [
        'import os, site, importlib',
        'root = os.path.join(site.getsitepackages()[0], "gpubook_fake_pkg")',
        'os.makedirs(root, exist_ok=True)',
        'with open(os.path.join(root, "__init__.py"), "w") as f:',
        '    f.write("def boom():\\n    raise RuntimeError(\'shape mismatch\')\\n")',
        'importlib.invalidate_caches()',
      ].join('\n'),
    );
    expect(setup.result).toEqual({ status: 'ok' });
    const { result } = await run('import gpubook_fake_pkg\ngpubook_fake_pkg.boom()', 9);
    expect(result.status === 'error' && result.traceback).toEqual([
      'Traceback (most recent call last):',
      '  File "Cell In[9]", line 2, in <module>',
      '    gpubook_fake_pkg.boom()',
      '    ~~~~~~~~~~~~~~~~~~~~~^^',
      'RuntimeError: shape mismatch',
    ]);
    const missing = await run('import no_such_module');
    // Listed beside whatever else is installed (our packages), in alphabetical order.
    expect(missing.result.status === 'error' && missing.result.evalue).toMatch(
      /Available now: (\w+, )*gpubook_fake_pkg, (\w+, )*the Python standard library\.$/,
    );
  });

  it('prints a note for shell and magic lines and runs the rest, keeping line numbers', async () => {
    const { result, out } = await run(
      '!pip install torchkeras\n%load_ext autoreload\nz = 5\nz / 0',
      4,
    );
    // pip runs before the cell: torchkeras is one of ours.
    expect(out).toMatch(
      /^stdout:torchkeras is built into gpubook .*\n\[gpubook\] skipped `%load_ext/,
    );
    expect(out).toContain('skipped `%load_ext autoreload`');
    expect(result.status === 'error' && result.traceback.join('\n')).toContain(
      'File "Cell In[4]", line 4',
    );
  });

  it('stops a busy loop with KeyboardInterrupt and keeps the variables', async () => {
    await run('kept = 41');
    const worker = await interruptFromAnotherThread(shared);
    const started = Date.now();
    const { result } = await run(BOUNDED_BUSY_LOOP);
    await worker.stop();
    expect(result.status).toBe('interrupted');
    expect(result.status === 'interrupted' && result.ename).toBe('KeyboardInterrupt');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((await run('kept + 1')).result).toEqual({ status: 'ok', repr: '42' });
  });

  it('stops a cell waiting on an await when interrupted, keeping the variables', async () => {
    await run('waiting = 7');
    const started = Date.now();
    // Again every 300 ms until the cell ends: one before the cell awaits would find nothing to stop.
    const timer = setInterval(() => kernel.interrupt(), 300);
    const { result } = await run('import asyncio\nawait asyncio.sleep(30)', 12);
    clearInterval(timer);
    expect(result.status).toBe('interrupted');
    expect(result.status === 'interrupted' && result.ename).toBe('KeyboardInterrupt');
    expect(result.status === 'interrupted' && result.traceback.join('\n')).toContain(
      'File "Cell In[12]", line 2, in <module>',
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((await run('waiting * 6')).result).toEqual({ status: 'ok', repr: '42' });
    // An interrupt with nothing running changes nothing; a cancellation the cell asked for
    // itself stays an ordinary error.
    kernel.interrupt();
    const own = await run(
      'import asyncio\nasync def f():\n    asyncio.current_task().cancel()\n    await asyncio.sleep(0)\nawait f()',
    );
    expect(own.result.status === 'error' && own.result.ename).toBe('CancelledError');
  });

  it('stops a long time.sleep on interrupt too, and sleeps as long as asked otherwise', async () => {
    const slept = await run(
      'import time\nt = time.monotonic()\ntime.sleep(0.2)\ntime.monotonic() - t >= 0.2',
    );
    expect(slept.result).toEqual({ status: 'ok', repr: 'True' });
    const worker = await interruptFromAnotherThread(shared);
    const started = Date.now();
    const { result } = await run('time.sleep(30)');
    await worker.stop();
    expect(result.status).toBe('interrupted');
    expect(Date.now() - started).toBeLessThan(2_000);
    const negative = await run('time.sleep(-1)');
    expect(negative.result.status === 'error' && negative.result.ename).toBe('ValueError');
  });
});
