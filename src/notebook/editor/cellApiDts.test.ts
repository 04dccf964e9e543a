import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCellApiDts, type CellApiDts } from '../../../scripts/cell-api-dts';
import { checkCells as checkLibsAndCells } from './testing/checkCells';

const projectRoot = path.resolve(__dirname, '../../..');
let fixtureRoot = '';
let generated: CellApiDts;

/** A miniature cell API: two modules, a class, a namespace object, an async method. */
const FIXTURE: Record<string, string> = {
  'src/engine/tensor.ts': `
export type DType = 'float32' | 'int32';
export class Tensor {
  constructor(readonly shape: number[], readonly dtype: DType = 'float32') {}
  add(other: Tensor | number): Tensor { return this; }
  async item(): Promise<number> { return 0; }
}
`,
  // Declarations cannot be emitted for this file (TS4094): it must not cost the others.
  'src/engine/broken.ts': `
export const makeLayer = () => class { private secret = 1; value = 2; };
`,
  // A module file and a folder of the same name: imports must resolve as the compiler does.
  'src/api/nn.ts': `
export { Linear } from './nn/linear';
`,
  'src/api/nn/linear.ts': `
import type { Tensor } from '../../engine/tensor';
export class Linear {
  constructor(readonly inFeatures: number, readonly outFeatures: number) {}
  forward(x: Tensor): Tensor { return x; }
}
`,
  'src/api/index.ts': `
import { Tensor, type DType } from '../engine/tensor';
import { Linear } from './nn';
export { makeLayer } from '../engine/broken';
class SGD { constructor(params: Tensor[], options?: { lr?: number }) {} step(): void {} }
export const torch = {
  tensor(data: number[], options?: { dtype?: DType }): Tensor { return new Tensor([data.length]); },
  nn: { Linear },
  optim: { SGD },
};
export const tf = { constant(data: number[]): Tensor { return new Tensor([data.length]); } };
`,
};

beforeAll(() => {
  fixtureRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'cell-api-dts-'));
  for (const [file, text] of Object.entries(FIXTURE)) {
    fs.mkdirSync(path.dirname(path.join(fixtureRoot, file)), { recursive: true });
    fs.writeFileSync(path.join(fixtureRoot, file), text);
  }
  fs.symlinkSync(path.join(projectRoot, 'node_modules'), path.join(fixtureRoot, 'node_modules'));
  generated = generateCellApiDts({ root: fixtureRoot });
});

afterAll(() => {
  if (fixtureRoot) fs.rmSync(fixtureRoot, { recursive: true, force: true });
});

const checkCells = (dts: string, cells: string[]) => checkLibsAndCells([dts], cells);

describe('generateCellApiDts', () => {
  it('declares the API modules and typed globals, and the text checks clean on its own', () => {
    const dts = generated;
    expect(dts.problems).toEqual([]);
    expect(dts.text).toContain('declare module "src/api/index"');
    expect(dts.text).toContain('declare module "src/engine/tensor"');
    expect(dts.text).toContain('declare module "src/engine/broken";');
    expect(dts.text).toContain('declare module "src/api/nn/linear" {');
    expect(dts.text).toContain('declare const torch: typeof import("src/api/index").torch;');
    expect(dts.text).toContain('declare const nn: typeof torch.nn;');
    expect(dts.text).toContain('declare const torchvision: any;');
    expect(dts.globals).toEqual(
      expect.arrayContaining(['print', 'display', 'params', 'timeit', 'compareDevices', 'tf']),
    );
    expect(dts.sources.map((f) => path.relative(fixtureRoot, f)).sort()).toEqual([
      'src/api/index.ts',
      'src/api/nn.ts',
      'src/api/nn/linear.ts',
      'src/engine/broken.ts',
      'src/engine/tensor.ts',
    ]);
  });

  it('lets cells use the API with top-level await and redeclare names across cells', () => {
    const { text } = generated;
    const problems = checkCells(text, [
      `const t = torch.tensor([1, 2, 3]);\nconst v: number = await t.add(2).item();\nprint(t.shape, v, params.size);`,
      `const t = tf.constant([4]);\nconst layer = new nn.Linear(3, 2);\nconst opt = new optim.SGD([t], { lr: 0.1 });\ndisplay(layer.forward(t));`,
      `class Net { forward(x) { return x; } }\nconst seconds = await timeit(() => torch.tensor([1]), { repeat: 3 });`,
    ]);
    expect(problems).toEqual([]);
  });

  it('reports misspelled API names and wrong argument types', () => {
    const { text } = generated;
    const problems = checkCells(text, [
      `const t = torch.tensr([1]);`,
      `const layer = new nn.Linear('three', 2);`,
    ]);
    expect(problems.map((p) => [p.cell, p.code])).toEqual([
      [0, 2551], // Property 'tensr' does not exist … Did you mean 'tensor'?
      [1, 2345], // Argument of type 'string' is not assignable to parameter of type 'number'.
    ]);
  });

  it('falls back to `any` globals while src/api/index.ts does not exist', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'cell-api-empty-'));
    try {
      const dts = generateCellApiDts({ root: empty });
      expect(dts.problems).toEqual([]);
      expect(dts.sources).toEqual([]);
      expect(dts.text).toContain('declare const torch: any;');
      expect(dts.text).toContain('declare const print: (...values: unknown[]) => void;');
      expect(checkCells(dts.text, ['print(torch.anything(1)); display(await tf.x);'])).toEqual([]);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
