import { describe, expect, it } from 'vitest';
import { crossCellDeclarations, topLevelNames } from './crossCellDeclarations';
import { checkCells } from './testing/checkCells';

describe('topLevelNames', () => {
  it('finds declarations of every kind at the start of a line', () => {
    const source = [
      'const net = new Net();',
      'let a = f(1, 2), b = [3, 4], c;',
      "var s = 'x, y', t: number = 2",
      'const { lr, momentum: m, nested: { deep = 1 }, ...rest } = config;',
      'const [xTrain, , [yTrain = 0], ...others] = data;',
      'async function* batches(n) {',
      '  const inner = 1;', // indented: not top level
      '}',
      'function train() {}',
      'export class Net extends nn.Module {}',
      'abstract class Base {}',
      'interface Options { lr: number }',
      'type Pair = [number, number];',
      'const enum Mode { A }',
      '// const commented = 1;',
      'for (const item of items) print(item);',
    ].join('\n');
    const names = topLevelNames(source);
    expect(names.values.sort()).toEqual(
      [
        'net',
        'a',
        'b',
        'c',
        's',
        't',
        'lr',
        'm',
        'deep',
        'rest',
        'xTrain',
        'yTrain',
        'others',
        'batches',
        'train',
        'Net',
        'Base',
        'Mode',
      ].sort(),
    );
    expect(names.types.sort()).toEqual(['Base', 'Mode', 'Net', 'Options', 'Pair']);
  });

  it('ignores an unfinished destructuring pattern instead of guessing', () => {
    expect(topLevelNames('const { a,\n  b } = obj;').values).toEqual([]);
  });
});

describe('crossCellDeclarations', () => {
  it('lets one cell use names from another, keeps real errors, and spares reserved names', () => {
    const cells = [
      'class Net { forward(x: number) { return x * 2; } }\nconst net = new Net();\ninterface Cfg { lr: number }',
      'const out = net.forward(3);\nconst cfg: Cfg = { lr: 0.1 };\nlet n: Net = net;',
      'print(undefinedThing);',
      'const net = 1;\nconst out = net + 1;',
    ];
    const lib = crossCellDeclarations(cells, new Set(['print']));
    expect(lib).not.toContain('declare var print');
    const printLib = 'declare const print: (...values: unknown[]) => void;';
    const problems = checkCells([printLib, lib], cells);
    expect(problems.map((p) => [p.cell, p.code])).toEqual([[2, 2304]]); // Cannot find name
  });
});
