/**
 * The element-wise table's activations in Python, against real PyTorch (Debian's python3-torch,
 * 1.13, CPU) on the same random inputs: torch.*, Tensor methods, F.* and nn modules with
 * PyTorch's arguments (softplus's beta and threshold, relu's inplace), values and input
 * gradients, and the modules' reprs. The program is testing/activations_program.py.
 */
import { expect } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { rng } from '../../engine/testing/harness';
// Runs in both Pythons: INPUT, and DEVICE under ours, are defined before it; it leaves RESULT.
import PROGRAM from './testing/activations_program.py?raw';
import { describeAgainstRealTorch, expectNear } from './testing/peer-program';
import { startPython } from './testing/pyodide';

const devices = (await testDevices()).map((d) => (d.kind === 'gpu' ? 'cuda:0' : 'cpu'));
const python = await startPython();

const rand = rng(2024);
const uniform = (low: number, high: number) => low + (high - low) * rand();
// Random values, and softplus's awkward ones: far left (tiny values), both sides of its
// threshold of 20, and of βx = 1.5 for beta=2, threshold=1.5.
const x = [
  ...Array.from({ length: 40 }, () => uniform(-4, 4)),
  ...[-30, -21, -0.7, 0, 0.3, 19.5, 20.5, 30],
  // The kinks of hardtanh (±1, its other bounds), relu6 (6), hardsigmoid and hardswish (±3).
  ...[-1, 1, -2, 2.5, -0.5, 0.25, 6, -3, 3, -8, -5.5, 5.5],
];
const INPUT = {
  x,
  positive: x.map(() => uniform(0.05, 5)),
  weights: x.map(() => uniform(-1, 1)),
};

interface Case {
  y: number[];
  grad: number[];
}
interface Result {
  any: Record<string, Case>;
  positive: Record<string, Case>;
  reprs: string[];
  softplus_fields: number[];
  activation_fields: (number | string)[];
}

describeAgainstRealTorch<Result>(
  'activations.test.ts',
  'activations against real PyTorch (Debian python3-torch)',
  'values, gradients and reprs agree on %s',
  { python, program: PROGRAM, input: INPUT, devices },
  (ours, real) => {
    for (const group of ['any', 'positive'] as const) {
      expect(Object.keys(ours[group])).toEqual(Object.keys(real[group]));
      for (const [name, want] of Object.entries(real[group])) {
        expectNear(ours[group][name].y, want.y, 2e-6, `${name} values`);
        expectNear(ours[group][name].grad, want.grad, 2e-6, `${name} gradient`);
      }
    }
    // The inputs reach both branches of each piecewise op.
    const softplus = real.any['F.softplus(beta=2, threshold=1.5)'];
    expect(softplus.y.some((v, i) => v === Math.fround(x[i]) && x[i] > 0.75)).toBe(true);
    expect(softplus.y.some((v, i) => v !== Math.fround(x[i]) && x[i] > 0)).toBe(true);
    expect(ours.reprs).toEqual(real.reprs);
    expect(ours.softplus_fields).toEqual(real.softplus_fields);
    expect(ours.activation_fields).toEqual(real.activation_fields);
  },
);
