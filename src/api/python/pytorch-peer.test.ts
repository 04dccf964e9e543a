/**
 * The same Python program under our `torch` and under real PyTorch (Debian's python3-torch,
 * 1.13, CPU), from the same weights and data (passed as JSON): losses, accuracies and trained
 * weights must agree to float32 rounding. Runs on the cpu backend and on WebGPU. The program is
 * testing/pytorch_peer_program.py.
 */
import { expect } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { rng } from '../../engine/testing/harness';
import { startPython } from './testing/pyodide';
// Runs in both Pythons: INPUT, and DEVICE under ours, are defined before it; it leaves RESULT.
import PROGRAM from './testing/pytorch_peer_program.py?raw';
import { describeAgainstRealTorch, expectNear } from './testing/peer-program';

const devices = (await testDevices()).map((d) => (d.kind === 'gpu' ? 'cuda:0' : 'cpu'));
const python = await startPython();

function nested(shape: number[], next: () => number): unknown {
  if (shape.length === 0) return next();
  return Array.from({ length: shape[0] }, () => nested(shape.slice(1), next));
}

const rand = rng(1234);
const signed = (scale: number) => () => (rand() * 2 - 1 || 0.5) * scale;
const INPUT = {
  weights: {
    scale: [0.75],
    'conv1.weight': nested([4, 1, 3, 3], signed(0.4)),
    'conv1.bias': nested([4], signed(0.1)),
    'fc.weight': nested([5, 36], signed(0.2)),
    'fc.bias': nested([5], signed(0.1)),
  },
  x: nested([12, 1, 8, 8], () => rand() + 0.01),
  y: Array.from({ length: 12 }, (_, i) => (i * 7 + 3) % 5),
  lx: nested([64, 2], () => rand() * 10 - 5),
  noise: nested([64, 1], signed(0.5)),
};

interface Classified {
  losses: number[];
  accuracy: number;
  weights: Record<string, number[]>;
}
interface Result {
  sgd: Classified;
  adam: Classified;
  regress: { losses: number[]; w: number[][]; b: number };
}

describeAgainstRealTorch<Result>(
  'pytorch-peer.test.ts',
  'the same program under real PyTorch (Debian python3-torch)',
  'gives the same losses and weights on %s',
  { python, program: PROGRAM, input: INPUT, devices },
  (ours, real) => {
    for (const opt of ['sgd', 'adam'] as const) {
      expectNear(ours[opt].losses, real[opt].losses, 2e-5, `${opt} losses`);
      expect(ours[opt].accuracy).toBeCloseTo(real[opt].accuracy, 6);
      for (const key of Object.keys(real[opt].weights)) {
        expectNear(ours[opt].weights[key], real[opt].weights[key], 5e-5, `${opt} ${key}`);
      }
    }
    // Training moved the weights away from where they started.
    expect(ours.sgd.weights['fc.bias']).not.toEqual(INPUT.weights['fc.bias']);
    expectNear(ours.regress.losses, real.regress.losses, 5e-5, 'regression losses');
    expectNear(ours.regress.w.flat(), real.regress.w.flat(), 2e-5, 'regression w');
    expectNear([ours.regress.b], [real.regress.b], 2e-5, 'regression b');
  },
);
