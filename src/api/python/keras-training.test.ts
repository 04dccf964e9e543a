/**
 * Keras's losses, optimizers, learning-rate schedules and confusion metrics against float64 NumPy
 * implementations of their documented formulas (testing/keras_training_reference.py), from the
 * same data: loss values and gradients, three optimizer steps, schedules at steps, and AUC,
 * Precision and Recall on random scores.
 */
import { expect } from 'vitest';
import { rng } from '../../engine/testing/harness';
import { describeAgainstFormulas } from './testing/keras-reference';
import { expectNear } from './testing/peer-program';
import { startTfPython, tfName } from './testing/tf-python';
import OURS from './testing/keras_training_program.py?raw';
import REFERENCE from './testing/keras_training_reference.py?raw';

const { devices, python } = await startTfPython();
const rand = rng(3737);
const uniform = (lo: number, hi: number) => lo + (hi - lo) * rand();
const matrix = (rows: number, cols: number, f: () => number) =>
  Array.from({ length: rows }, () => Array.from({ length: cols }, f));
const oneHot = (rows: number, cols: number) =>
  Array.from({ length: rows }, () => {
    const hot = Math.floor(rand() * cols);
    return Array.from({ length: cols }, (_, j) => (j === hot ? 1 : 0));
  });
const normalized = (rows: number[][]) =>
  rows.map((r) => r.map((v) => v / r.reduce((a, b) => a + b, 0)));

const INPUT = {
  yb: matrix(4, 3, () => (rand() < 0.5 ? 0 : 1)),
  pb: matrix(4, 3, () => uniform(0.03, 0.97)),
  lb: matrix(4, 3, () => uniform(-3, 3)),
  w: [0.5, 1, 2, 0.25],
  yc: oneHot(4, 5),
  pc: matrix(4, 5, () => uniform(0.05, 1)),
  lc: matrix(4, 5, () => uniform(-3, 3)),
  yc3: [oneHot(4, 3), oneHot(4, 3)].map((m) => m[0].map((_, j) => m.map((r) => r[j]))),
  pc3: Array.from({ length: 2 }, () => matrix(3, 4, () => uniform(0.05, 1))),
  yh: matrix(4, 3, () => uniform(-2, 2)),
  ph: matrix(4, 3, () => uniform(-2, 2)),
  yk: normalized(matrix(4, 5, () => uniform(0.05, 1))),
  pk: normalized(matrix(4, 5, () => uniform(0.05, 1))),
  w0: matrix(3, 4, () => uniform(-1, 1)),
  b0: matrix(1, 4, () => uniform(-1, 1))[0],
  gw: Array.from({ length: 3 }, () => matrix(3, 4, () => uniform(-1, 1))),
  gb: Array.from({ length: 3 }, () => matrix(1, 4, () => uniform(-1, 1))[0]),
};

interface Case {
  value: number[];
  grad: number[];
}
interface Steps {
  values: number[][];
  rates: number[];
  iterations: number;
}
interface Result {
  losses: Record<string, Case>;
  optimizers: Record<string, Steps>;
  schedules: Record<string, number[]>;
}

describeAgainstFormulas<Result>(
  'keras-training.test.ts',
  'Keras losses, optimizers, schedules and metrics against their formulas (float64 NumPy)',
  'values and gradients agree on %s',
  {
    python,
    ours: OURS,
    reference: REFERENCE,
    input: INPUT,
    devices: devices.map((d) => tfName(d.name)),
  },
  (ours, reference) => {
    expect(Object.keys(ours.losses)).toEqual(Object.keys(reference.losses));
    for (const [name, want] of Object.entries(reference.losses)) {
      expectNear(ours.losses[name].value, want.value, 1e-4, `${name} value`);
      expectNear(ours.losses[name].grad, want.grad, 1e-4, `${name} d/dy_pred`);
    }
    expect(Object.keys(ours.optimizers)).toEqual(Object.keys(reference.optimizers));
    for (const [name, want] of Object.entries(reference.optimizers)) {
      const got = ours.optimizers[name];
      expectNear(got.rates, want.rates, 1e-6, `${name} learning_rate`);
      want.values.forEach((v, step) =>
        expectNear(got.values[step], v, 1e-4, `${name} weights after step ${step + 1}`),
      );
      expect(got.iterations, `${name} iterations`).toBe(want.iterations);
    }
    for (const [name, want] of Object.entries(reference.schedules))
      expectNear(ours.schedules[name], want, 1e-6, `schedule ${name}`);
  },
);
