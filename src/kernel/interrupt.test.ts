/**
 * Interrupt reaches every kind of loop a cell can write, brace-less or not, labelled or driven by a
 * generator, and leaves the notebook's functions usable afterwards.
 */
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { KernelInterrupt } from './cell-errors';
import { compileCell, declareNames, RunControl } from './execute';

/** Cells run one after another on one scope against one shared interrupt flag, like the kernel. */
function makeKernel() {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const raise = () => void Atomics.store(flag, 0, 1);
  const scope = Object.create({ raise }) as Record<string, unknown>;
  let count = 0;
  return {
    flag,
    scope,
    raise,
    /** Runs a cell; its promise, or what the loop threw when it could not even start awaiting. */
    run(source: string, control = new RunControl(flag)): Promise<unknown> {
      const cell = compileCell(source, ++count);
      declareNames(scope, cell.declaredNames);
      // A loop that never checks would spin forever inside this synchronous call; vm's timeout
      // terminates it, so a broken rewrite fails the test instead of hanging the run.
      const start = () => cell.run(scope, control);
      return vm.runInNewContext('start()', { start }, { timeout: 5_000 }) as Promise<unknown>;
    },
  };
}

describe('a set interrupt flag stops every loop kind', () => {
  const endless: [string, string][] = [
    ['an empty while', 'let x = 0; while (true);'],
    ['a brace-less for(;;)', 'let x = 0; for (;;) x++'],
    ['a brace-less do-while', 'let x = 0; do x++; while (true)'],
    [
      'a labelled loop with continue',
      'let x = 0; outer: while (true) { for (;;) { x++; continue outer } }',
    ],
    [
      'a for-of over a generator',
      'let x = 0; function* nat() { let i = 0; while (true) yield i++ }\nfor (const n of nat()) x = n',
    ],
    [
      'a generator spread with no loop in the cell',
      'let x = 0; function* nat() { let i = 0; while (true) yield i++ }\nconst all = [...nat()]',
    ],
    ['a brace-less for-in inside a while', 'let x = 0; while (true) for (const k in { a: 1 }) x++'],
    [
      'a for await over an endless async generator',
      'let x = 0; async function* tick() { while (true) yield x }\nfor await (const t of tick()) x++',
    ],
    ['an awaiting loop', 'let x = 0; while (true) await x'],
  ];

  it.each(endless)('%s, before its body runs', async (_name, source) => {
    const kernel = makeKernel();
    kernel.raise();
    await expect(kernel.run(source)).rejects.toBeInstanceOf(KernelInterrupt);
    expect(kernel.scope.x).toBe(0);
  });

  const raisedInside: [string, string][] = [
    ['a brace-less for(;;)', 'let x = 0; for (;;) ++x === 1000 && raise()'],
    ['a brace-less do-while', 'let x = 0; do if (++x === 1000) raise(); while (true)'],
    [
      'a labelled loop',
      'let x = 0; outer: for (;;) inner: while (true) { if (++x === 1000) raise(); continue outer }',
    ],
    [
      'a generator-driven loop',
      'let x = 0; function* nat() { let i = 1; while (true) yield i++ }\nfor (const n of nat()) if ((x = n) === 1000) raise()',
    ],
  ];

  it.each(raisedInside)('%s, at the iteration after the flag is set', async (_name, source) => {
    const kernel = makeKernel();
    await expect(kernel.run(source)).rejects.toBeInstanceOf(KernelInterrupt);
    expect(kernel.scope.x).toBe(1000);
  });

  it('stops an awaiting loop at its next await once the run is cancelled', async () => {
    const kernel = makeKernel();
    const control = new RunControl(kernel.flag);
    kernel.scope.stop = () => control.cancel();
    const run = kernel.run(
      'let x = 0; while (true) { await null; if (++x === 50) stop() }',
      control,
    );
    await expect(run).rejects.toBeInstanceOf(KernelInterrupt);
    expect(kernel.scope.x).toBe(50);
  });
});

describe('after an interrupt', () => {
  it('a function an earlier cell defined still works once the flag is cleared', async () => {
    const kernel = makeKernel();
    await kernel.run(
      'function sum(n: number) { let s = 0; for (let i = 1; i <= n; i++) s += i; return s }',
    );
    // The interrupt lands inside sum, whose loop checks through the first cell's control.
    const stuck = kernel.run('let x = 0; while (true) { if (++x === 10) raise(); sum(3) }');
    await expect(stuck).rejects.toBeInstanceOf(KernelInterrupt);
    Atomics.store(kernel.flag, 0, 0);
    expect(await kernel.run('sum(4)')).toBe(10);
  });

  it('an interrupted run stays cancelled, so the loops it left behind stop', async () => {
    const kernel = makeKernel();
    const control = new RunControl(kernel.flag);
    const run = kernel.run(
      'let x = 0; function count() { for (let i = 0; i < 3; i++) x++ }\nraise(); count()',
      control,
    );
    await expect(run).rejects.toBeInstanceOf(KernelInterrupt);
    Atomics.store(kernel.flag, 0, 0);
    expect(control.cancelled).toBe(true);
    expect(() => (kernel.scope.count as () => void)()).toThrow(KernelInterrupt);
  });
});
