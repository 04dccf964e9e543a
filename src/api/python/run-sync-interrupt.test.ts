/**
 * Interrupting a Python cell that keeps waiting in `run_sync` (as a training loop reading losses
 * back does): the kernel's guarded run_sync (src/kernel/python/modules/_gpubook_run_sync.py) raises
 * KeyboardInterrupt in the cell's own frame, the cell ends as interrupted, and its variables
 * survive. Here, not beside the kernel's other tests, because run_sync needs JSPI, which only this
 * project's Node workers have.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { INTERRUPT_BUFFER_BYTES, PYTHON_SIGINT, PYTHON_SIGNAL_SLOT } from '../../kernel/protocol';
import { PythonKernel } from '../../kernel/python/python-kernel';

const indexURL = `${dirname(createRequire(import.meta.url).resolve('pyodide/package.json'))}/`;
const signal = new Int32Array(
  new SharedArrayBuffer(INTERRUPT_BUFFER_BYTES),
  PYTHON_SIGNAL_SLOT * 4,
  1,
);
let kernel: PythonKernel;

beforeAll(async () => {
  kernel = await PythonKernel.start({
    importLoader: async () => (await import('pyodide')).loadPyodide,
    indexURL,
    interruptBuffer: signal,
    globals: {},
    write: () => undefined,
  });
}, 60_000);

it('stops a loop blocking on promises with run_sync, in the cell, keeping its variables', async () => {
  const loop = [
    'import js',
    'from pyodide.ffi import run_sync',
    'later = js.Function.new("ms", "return new Promise((ok) => setTimeout(() => ok(1), ms))")',
    'steps = 0',
    'while True:',
    '    steps += run_sync(later(5))',
  ].join('\n');
  for (let attempt = 0; attempt < 5; attempt++) {
    const started = Date.now();
    // As the page and the worker do: the signal goes in the buffer, then the message arrives.
    const timer = setTimeout(
      () => {
        Atomics.store(signal, 0, PYTHON_SIGINT);
        kernel.interrupt();
      },
      100 + 37 * attempt,
    );
    const result = await kernel.run(loop, 3 + attempt);
    clearTimeout(timer);
    expect(result.status).toBe('interrupted');
    expect(result.status === 'interrupted' && result.ename).toBe('KeyboardInterrupt');
    expect(result.status === 'interrupted' && result.traceback.join('\n')).toContain(
      `File "Cell In[${3 + attempt}]", line 6, in <module>`,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    const after = await kernel.run('steps > 0', 20);
    expect(after).toEqual({ status: 'ok', repr: 'True' });
  }
});
