/**
 * Indexing, scans and sorts in Python against real PyTorch (Debian's python3-torch, 1.13, CPU) on
 * the same random inputs: gather, scatter(_), scatter_add(_), index_select, index_add(_),
 * take_along_dim, masked_fill(_), cumsum, cumprod, sort, argsort, topk, kthvalue, median, flip and
 * roll in their torch.* and Tensor forms, and argmax/argmin with dim — values, indices, input
 * gradients — and torch.return_types' reprs. The program is testing/torch_indexing_program.py.
 */
import { expect } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { rng } from '../../engine/testing/harness';
// Runs in both Pythons: INPUT, and DEVICE under ours, are defined before it; it leaves RESULT.
import PROGRAM from './testing/torch_indexing_program.py?raw';
import { describeAgainstRealTorch, expectNear } from './testing/peer-program';
import { startPython } from './testing/pyodide';

const devices = (await testDevices()).map((d) => (d.kind === 'gpu' ? 'cuda:0' : 'cpu'));
const python = await startPython();

const rand = rng(36);
const ints = (n: number, below: number) =>
  Array.from({ length: n }, () => Math.floor(rand() * below));
// Distinct values (a shuffled grid), so sorts have one answer and their indices can be compared.
const x = Array.from({ length: 160 }, (_, i) => -2 + (4 * (i + 0.5)) / 160)
  .map((v) => [rand(), v] as const)
  .sort((a, b) => a[0] - b[0])
  .map(([, v]) => v);
const INPUT = {
  x,
  weights: Array.from({ length: 160 }, () => -1 + 2 * rand()),
  gather: ints(40, 5),
  four: ints(40, 4),
  small: ints(40, 3),
  mask: [1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 0],
  // Rows of cumprod inputs with no zero, one, and two.
  zeros: [1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0, 1],
};

interface Case {
  y: number[];
  indices: number[] | null;
  grads: number[][];
}
interface Result {
  cases: Record<string, Case>;
  in_place: number[];
  arg_extremes: unknown[];
  reprs: string[];
}

describeAgainstRealTorch<Result>(
  'torch-indexing.test.ts',
  'indexing, scans and sorts against real PyTorch (Debian python3-torch)',
  'values, indices, gradients and reprs agree on %s',
  { python, program: PROGRAM, input: INPUT, devices },
  (ours, real) => {
    expect(Object.keys(ours.cases)).toEqual(Object.keys(real.cases));
    for (const [name, want] of Object.entries(real.cases)) {
      const got = ours.cases[name];
      expectNear(got.y, want.y, 1e-4, `${name} values`);
      expect(got.indices ?? null, `${name} indices`).toEqual(want.indices);
      expect(got.grads.length, `${name} gradients`).toBe(want.grads.length);
      want.grads.forEach((g, i) => expectNear(got.grads[i], g, 1e-4, `${name} gradient ${i}`));
    }
    expectNear(ours.in_place, real.in_place, 1e-6, 'scatter_add_ and masked_fill_');
    expect(ours.arg_extremes).toEqual(real.arg_extremes);
    expect(ours.reprs).toEqual(real.reprs);
  },
);
