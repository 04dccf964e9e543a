/**
 * What the rewrite promises besides running like Node (node-compare.test.ts): which names a cell
 * declares on the notebook's scope, and that every rewritten line stays on its own line, so errors
 * point at the line the user wrote.
 */
import { describe, expect, it } from 'vitest';
import { reportError } from './cell-errors';
import { compileCell, RunControl } from './execute';
import { rewriteCell } from './rewrite';

describe('declared names', () => {
  it('are the top level’s: its declarations and any var outside a function', () => {
    const { declaredNames } = rewriteCell(
      [
        'const a = 1, { b, c: [d] } = { b: 2, c: [3] };',
        'let e; var f;',
        'function g() { var local = 1; return local }',
        'class H { static { var inStatic = 1 } }',
        'for (var i = 0; i < 1; i++) { var inLoop = 1; let blockLet = 2 }',
        'for (var k of [1]) if (k) var inIf = 1;',
        'const arrow = () => { var inArrow = 1 }',
      ].join('\n'),
    );
    expect([...declaredNames].sort()).toEqual(
      ['H', 'a', 'arrow', 'b', 'd', 'e', 'f', 'g', 'i', 'inIf', 'inLoop', 'k'].sort(),
    );
  });
});

describe('line numbers survive the rewrite', () => {
  it('a throw after declarations, brace-less loops and awaits reports its own line', async () => {
    const source = [
      'const first = await Promise.resolve(1)',
      'var',
      '  spread = 2,',
      '  more = 3',
      'for (let i = 0; i < 2; i++) await null',
      'for (var j = 0; j < 2; j++)',
      '  if (j) var seen = j',
      'class Late {}',
      'throw new RangeError("line 9")',
    ].join('\n');
    const cell = compileCell(source, 4);
    const error = await cell.run({}, new RunControl(null)).catch((e: unknown) => e);
    const report = reportError(error, cell.lineOffset, source.split('\n').length);
    expect(report.evalue).toBe('line 9');
    expect(report.traceback[0]).toContain('cell-4.ts, line 9');
  });
});
