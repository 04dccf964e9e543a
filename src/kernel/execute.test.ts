import { describe, expect, it } from 'vitest';
import { CellSyntaxError, KernelInterrupt, reportError } from './cell-errors';
import { compileCell, declareNames, RunControl } from './execute';

/** Runs cells one after another on one scope, like the kernel does. */
function makeRepl(globals: Record<string, unknown> = {}) {
  const scope = Object.create(globals) as Record<string, unknown>;
  let count = 0;
  return {
    scope,
    async run(source: string, control = new RunControl(null)) {
      const cell = compileCell(source, ++count);
      declareNames(scope, cell.declaredNames);
      return cell.run(scope, control);
    },
  };
}

describe('cell rewrite: declarations persist like a REPL', () => {
  it('keeps const, let, var across cells', async () => {
    const repl = makeRepl();
    await repl.run('const a: number = 2; let b = 3; var c = 4;');
    expect(await repl.run('a * b * c')).toBe(24);
  });

  it('allows a later cell to declare the same name again', async () => {
    const repl = makeRepl();
    await repl.run('const x = 1;');
    await repl.run('const x = "again";');
    expect(await repl.run('x')).toBe('again');
  });

  it('handles several declarators, no initialiser, and destructuring', async () => {
    const repl = makeRepl();
    await repl.run(
      'let u, v = 5\nconst { p, q: [r, ...rest], s = 9 } = { p: 1, q: [2, 3, 4] }\nconst [m, , n = 7] = [10, 11]',
    );
    expect(await repl.run('[u, v, p, r, rest, s, m, n]')).toEqual([
      undefined,
      5,
      1,
      2,
      [3, 4],
      9,
      10,
      7,
    ]);
  });

  it('hoists functions and keeps classes', async () => {
    const repl = makeRepl();
    await repl.run(
      'const early = twice(21);\nfunction twice(n: number): number { return n * 2 }\nclass Box<T> { constructor(public value: T) {} }',
    );
    expect(await repl.run('[early, twice(5), new Box<string>("k").value]')).toEqual([42, 10, 'k']);
  });

  it('supports top-level await and returns the last expression', async () => {
    const repl = makeRepl();
    const value = await repl.run(
      'const v = await new Promise<number>((r) => setTimeout(() => r(6), 1));\nv * 7',
    );
    expect(value).toBe(42);
  });

  it('does not show an assignment as the cell value', async () => {
    const repl = makeRepl();
    await repl.run('let z = 1;');
    expect(await repl.run('z = 5')).toBeUndefined();
    expect(await repl.run('z')).toBe(5);
  });

  it('resolves names to cell globals behind the scope', async () => {
    const repl = makeRepl({ greet: (n: string) => `hi ${n}` });
    expect(await repl.run('greet("ada")')).toBe('hi ada');
  });

  it('keeps loop variables local to the loop', async () => {
    const repl = makeRepl();
    await repl.run('let total = 0; for (let i = 0; i < 10; i++) total += i;');
    expect(await repl.run('[total, typeof i]')).toEqual([45, 'undefined']);
  });
});

describe('syntax errors', () => {
  it('reports TypeScript syntax errors with line and column before running', () => {
    let caught: unknown;
    try {
      compileCell('const ok = 1;\nconst = 5;', 1);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CellSyntaxError);
    expect((caught as CellSyntaxError).line).toBe(2);
    expect((caught as CellSyntaxError).column).toBeGreaterThan(0);
  });

  it('refuses import with a clear message', () => {
    expect(() => compileCell('import x from "y";', 1)).toThrow(
      /import and export are not available/,
    );
  });
});

describe('runtime errors map to cell lines', () => {
  it('names the line of the cell that threw', async () => {
    const repl = makeRepl();
    const cell = compileCell('const a = 1;\n\nthrow new RangeError("boom");', 7);
    let caught: unknown;
    try {
      await cell.run(repl.scope, new RunControl(null));
    } catch (error) {
      caught = error;
    }
    const report = reportError(caught, cell.lineOffset);
    expect(report.ename).toBe('RangeError');
    expect(report.evalue).toBe('boom');
    expect(report.traceback[0]).toContain('cell-7.ts, line 3');
  });

  it('describes a thrown non-Error value', () => {
    const report = reportError({ code: 42 }, 0);
    expect(report.evalue).toContain('{"code":42}');
  });
});

describe('interrupt', () => {
  it('stops a synchronous endless loop when the shared flag is set', async () => {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const repl = makeRepl({ raise: () => Atomics.store(flag, 0, 1) });
    const run = repl.run(
      'let n = 0; while (true) { n++; if (n === 1000) raise(); }',
      new RunControl(flag),
    );
    await expect(run).rejects.toBeInstanceOf(KernelInterrupt);
    expect(repl.scope.n).toBe(1000);
  });

  it('stops at the next await once cancelled', async () => {
    const control = new RunControl(null);
    const repl = makeRepl({ cancel: () => control.cancel() });
    const run = repl.run('let k = 0; cancel(); await Promise.resolve(); k = 1;', control);
    await expect(run).rejects.toBeInstanceOf(KernelInterrupt);
    expect(repl.scope.k).toBe(0);
  });
});

describe('tracebacks', () => {
  it('show no wrapper frame for a one-line cell', async () => {
    const cell = compileCell('null.boom', 3);
    const error = await cell.run({}, new RunControl(null)).catch((e: unknown) => e);
    const report = reportError(error, cell.lineOffset, 1);
    expect(report.traceback).toHaveLength(1);
    expect(report.traceback[0]).toContain('line 1');
  });
});
