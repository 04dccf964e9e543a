/**
 * tf.nn and the tf.* tensor functions (src/api/tf/ops.ts, nn.ts; Python's tensorflow/_ops.py)
 * against float64 NumPy implementations of TensorFlow's documented formulas: each item's value
 * and GradientTape's gradients for its float inputs, the values and dtypes of the
 * non-differentiable ones (argmax, one_hot, where's indices, comparisons, shapes), and the Python
 * forms TensorFlow gives (top_k's TopKV2, moments' tuple, unstack's list).
 */
import { expect } from 'vitest';
import { rng } from '../../engine/testing/harness';
import { describeAgainstFormulas } from './testing/keras-reference';
import { expectNear } from './testing/peer-program';
import { startTfPython, tfName } from './testing/tf-python';
import OURS from './testing/keras_tf_ops_program.py?raw';
import REFERENCE from './testing/keras_tf_ops_reference.py?raw';

const { devices, python } = await startTfPython();
const rand = rng(3701);
const matrix = (rows: number, cols: number, scale: number, offset = 0) =>
  Array.from({ length: rows }, () =>
    Array.from({ length: cols }, () => offset + (rand() * 2 - 1) * scale),
  );
const rowsSummingToOne = matrix(3, 4, 0.4, 0.6).map((row) => {
  const total = row.reduce((s, v) => s + v, 0);
  return row.map((v) => v / total);
});
const INPUT = {
  x: matrix(3, 4, 2),
  a: matrix(3, 4, 1, 0.2),
  b: matrix(4, 2, 1),
  z: matrix(3, 4, 0.5, 0.5),
  p: rowsSummingToOne,
  mask: [
    [true, false, true, true],
    [false, false, true, false],
    [true, true, false, true],
  ],
  columns: [true, false, true, true],
  labels: [2, 0, 3],
};

interface Item {
  y: number[];
  shape: number[];
  grads: number[][];
}
interface Result {
  grads: Record<string, Item>;
  values: Record<string, number[]>;
  dtypes: Record<string, string>;
  kinds: Record<string, string>;
}

const DTYPES: Record<string, string> = {
  // TensorFlow's int64 indices are the engine's int32 (docs/tf-keras.md says why).
  argmax: 'tf.int32 [4]',
  argmax_axis1: 'tf.int32 [3]',
  argmin_axis1: 'tf.int32 [3]',
  top_k_indices: 'tf.int32 [3, 3]',
  one_hot: 'tf.float32 [3, 4]',
  one_hot_on_off_axis0: 'tf.float32 [3, 3]',
  where_indices: 'tf.int32 [7, 2]',
  equal: 'tf.bool [3, 4]',
  greater: 'tf.bool [3, 4]',
  reduce_any: 'tf.bool [3]',
  reduce_all: 'tf.bool [4]',
  sort_descending: 'tf.float32 [3, 4]',
  argsort: 'tf.int32 [3, 4]',
  shape: 'tf.int32 [2]',
  size: 'tf.int32 []',
  rank: 'tf.int32 []',
  fill: 'tf.int32 [2, 3]',
  zeros_like: 'tf.float32 [3, 4]',
  ones_like: 'tf.float32 [3, 4]',
  linspace: 'tf.float32 [7]',
  eye: 'tf.float32 [2, 3]',
};

describeAgainstFormulas<Result, Omit<Result, 'dtypes' | 'kinds'>>(
  'keras-tf-ops.test.ts',
  'tf.nn and tf.* tensor functions against their documented formulas (float64 NumPy)',
  'values, gradients, dtypes and Python forms agree on %s',
  {
    python,
    ours: OURS,
    reference: REFERENCE,
    input: INPUT,
    devices: devices.map((d) => tfName(d.name)),
  },
  (ours, reference) => {
    expect(Object.keys(ours.grads).sort()).toEqual(Object.keys(reference.grads).sort());
    for (const [name, want] of Object.entries(reference.grads)) {
      const got = ours.grads[name];
      expect(got.shape, `${name}: shape`).toEqual(want.shape);
      expectNear(got.y, want.y, 1e-4, `${name}: y`);
      expect(got.grads.length, `${name}: gradients`).toBe(want.grads.length);
      want.grads.forEach((g, i) => expectNear(got.grads[i], g, 1e-4, `${name}: d/dinput${i}`));
    }
    for (const [name, want] of Object.entries(reference.values))
      expectNear(ours.values[name], want, 1e-5, name);
    expect(ours.dtypes).toEqual(DTYPES);
    expect(ours.kinds).toEqual({
      top_k: "TopKV2 ('values', 'indices') True",
      top_k_repr:
        'TopKV2(values=<tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 2.], dtype=float32)>, ' +
        'indices=<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>)',
      moments: 'tuple 2',
      unstack: 'list 3',
    });
  },
);
