/**
 * Keras's losses, optimizers, learning-rate schedules and confusion metrics against float64 NumPy
 * implementations of their documented formulas (testing/keras_training_reference.py), from the
 * same data: loss values and gradients, three optimizer steps, schedules at steps, and AUC,
 * Precision and Recall on random scores.
 */
import { describe, expect, it } from 'vitest';
import { rng } from '../../engine/testing/harness';
import { describeAgainstFormulas } from './testing/keras-reference';
import { expectNear, runOurs } from './testing/peer-program';
import { startTfPython, tfName } from './testing/tf-python';
import OURS from './testing/keras_training_program.py?raw';
import REFERENCE from './testing/keras_training_reference.py?raw';
import METRICS from './testing/keras_metrics_program.py?raw';
import METRICS_REFERENCE from './testing/keras_metrics_reference.py?raw';
import CALLBACKS from './testing/keras_callbacks_program.py?raw';
import ERRORS from './testing/keras_training_errors_program.py?raw';

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

const run = (section: 'losses' | 'optimizers') => ({
  python,
  ours: OURS,
  reference: REFERENCE,
  input: { ...INPUT, section },
  devices: devices.map((d) => tfName(d.name)),
});

describeAgainstFormulas<Pick<Result, 'losses'>, Result>(
  'keras-training.test.ts',
  'Keras losses against their formulas (float64 NumPy)',
  'values and gradients agree on %s',
  run('losses'),
  (ours, reference) => {
    expect(Object.keys(ours.losses)).toEqual(Object.keys(reference.losses));
    for (const [name, want] of Object.entries(reference.losses)) {
      expectNear(ours.losses[name].value, want.value, 1e-4, `${name} value`);
      expectNear(ours.losses[name].grad, want.grad, 1e-4, `${name} d/dy_pred`);
    }
  },
);

describeAgainstFormulas<Omit<Result, 'losses'>, Result>(
  'keras-training.test.ts',
  'Keras optimizers (three steps) and learning-rate schedules against their formulas (float64 NumPy)',
  'weights and rates agree on %s',
  run('optimizers'),
  (ours, reference) => {
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

// Scores are float32 values (Math.fround), so both sides compare the same numbers to thresholds.
const scores = (n: number, f: () => number) => Array.from({ length: n }, () => Math.fround(f()));
const METRICS_INPUT = {
  y: scores(40, () => (rand() < 0.4 ? 1 : 0)),
  s: scores(40, () => rand()),
  logits: scores(40, () => uniform(-4, 4)),
  w: scores(40, () => uniform(0.2, 2)),
  y4: matrix(10, 4, () => (rand() < 0.35 ? 1 : 0)),
  s4: matrix(10, 4, () => Math.fround(rand())),
};

interface MetricsResult {
  metrics: Record<string, { value: number[]; after_reset: number[] }>;
  names: string[];
}

describeAgainstFormulas<MetricsResult>(
  'keras-training.test.ts',
  'Keras AUC, Precision and Recall against their algorithm (float64 NumPy)',
  'results agree on %s',
  {
    python,
    ours: METRICS,
    reference: METRICS_REFERENCE,
    input: METRICS_INPUT,
    devices: devices.map((d) => tfName(d.name)),
  },
  (ours, reference) => {
    expect(ours.names).toEqual(reference.names);
    expect(Object.keys(ours.metrics)).toEqual(Object.keys(reference.metrics));
    for (const [name, want] of Object.entries(reference.metrics)) {
      expectNear(ours.metrics[name].value, want.value, 1e-5, name);
      expectNear(ours.metrics[name].after_reset, want.after_reset, 0, `${name} after reset_state`);
    }
  },
);

describe('Keras learning-rate callbacks in a Python fit', () => {
  it('ReduceLROnPlateau halves the rate on the plateau and history has lr; a one-argument schedule works', async () => {
    const random = rng(5);
    const input = {
      x: matrix(32, 2, () => uniform(-1, 1)),
      y: matrix(32, 1, () => (random() < 0.5 ? 0 : 1)),
    };
    const result = await runOurs<{
      plateau: Record<string, number[]>;
      scheduler: Record<string, number[]>;
      log_dir: string;
      cosine: number[];
    }>(python, CALLBACKS, input, '/cpu:0');
    expect(Object.keys(result.plateau)).toEqual(['loss', 'auc', 'precision', 'recall', 'lr']);
    const half = Math.fround(0.1) * 0.5;
    expect(result.plateau.lr).toEqual([0.1, 0.1, 0.1, half, half]);
    expect(result.scheduler.lr).toEqual([0.2, 0.1, 0.05]);
    for (const auc of result.plateau.auc) expect(auc).toBeGreaterThanOrEqual(0);
    expect(result.log_dir).toBe('logs/fit');
    expectNear(result.cosine, [0.1, 0.05, 0], 1e-7, 'CosineDecay from its module');
  });
});

describe("Keras's errors for bad arguments", () => {
  it("raises them with Keras's types and messages", async () => {
    const errors = await runOurs<string[]>(python, ERRORS, {}, '/cpu:0');
    expect(errors).toEqual([
      'ValueError: categorical_crossentropy: Shapes (4, 3) and (4, 2) are incompatible',
      'ValueError: BinaryCrossentropy: labelSmoothing must be in [0, 1], got 1.5',
      'ValueError: At most one of `clipnorm` and `global_clipnorm` can be set. Received: clipnorm=1.0, global_clipnorm=2.0.',
      'TypeError: This optimizer was created with a `LearningRateSchedule` object as its `learning_rate` constructor argument, hence its learning rate is not settable. If you need the learning rate to be settable, you should instantiate the optimizer with a float `learning_rate` argument.',
      'ValueError: The length of boundaries should be 1 less than the length of values. Received: boundaries=[1, 2] of length 2, and values=[0.1, 0.01] of length 2.',
      'ValueError: ReduceLROnPlateau does not support a factor >= 1.0. Got 1.5',
      'ValueError: Invalid AUC curve value: "XY". Expected values are ["ROC", "PR"]',
      'ValueError: The output of the "schedule" function should be float. Got: fast',
    ]);
  });
});
