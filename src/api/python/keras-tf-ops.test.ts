/**
 * tf.nn and the tf.* tensor functions (src/api/tf/ops.ts, nn.ts; Python's tensorflow/_ops.py)
 * against float64 NumPy implementations of TensorFlow's documented formulas: each item's value
 * and GradientTape's gradients for its float inputs, the values and dtypes of the
 * non-differentiable ones (argmax, one_hot, where's indices, comparisons, shapes), and the Python
 * forms TensorFlow gives (top_k's TopKV2, moments' tuple, unstack's list); then tf.Module's tracking
 * and a training loop over one, tf.function's input_signature errors, and tf.random's statistics.
 */
import { expect } from 'vitest';
import { rng } from '../../engine/testing/harness';
import { describeAgainstFormulas } from './testing/keras-reference';
import { expectNear } from './testing/peer-program';
import { startTfPython, tfName } from './testing/tf-python';
import MODULE_OURS from './testing/keras_tf_module_program.py?raw';
import MODULE_REFERENCE from './testing/keras_tf_module_reference.py?raw';
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
  round: 'tf.float32 [7]',
  ceil: 'tf.float32 [3, 4]',
  count_nonzero: 'tf.int32 [3]',
  confusion_matrix: 'tf.int32 [3, 3]',
  confusion_matrix_weighted: 'tf.float32 [2, 2]',
};

const KINDS = {
  top_k: "TopKV2 ('values', 'indices') True",
  top_k_repr:
    'TopKV2(values=<tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 2.], dtype=float32)>, ' +
    'indices=<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>)',
  moments: 'tuple 2',
  unstack: 'list 3',
};

// Two parts (the program's PART), each a test within the default time limit on SwiftShader: the
// first half of the differentiable items, then the rest with the values, dtypes and Python forms.
[0, 1].forEach((part) =>
  describeAgainstFormulas<Result, Omit<Result, 'dtypes' | 'kinds'>>(
    'keras-tf-ops.test.ts',
    `tf.nn and tf.* tensor functions against their documented formulas (float64 NumPy), part ${part + 1} of 2`,
    'values, gradients, dtypes and Python forms agree on %s',
    {
      python,
      ours: OURS,
      reference: REFERENCE,
      input: { ...INPUT, part },
      devices: devices.map((d) => tfName(d.name)),
    },
    (ours, reference) => {
      const names = Object.keys(reference.grads);
      const half = Math.floor(names.length / 2);
      expect(Object.keys(ours.grads)).toEqual(
        part === 0 ? names.slice(0, half) : names.slice(half),
      );
      for (const name of Object.keys(ours.grads)) {
        const [got, want] = [ours.grads[name], reference.grads[name]];
        expect(got.shape, `${name}: shape`).toEqual(want.shape);
        expectNear(got.y, want.y, 1e-4, `${name}: y`);
        expect(got.grads.length, `${name}: gradients`).toBe(want.grads.length);
        want.grads.forEach((g, i) => expectNear(got.grads[i], g, 1e-4, `${name}: d/dinput${i}`));
      }
      if (part === 0) return;
      for (const [name, want] of Object.entries(reference.values))
        expectNear(ours.values[name], want, 1e-5, name);
      expect(ours.dtypes).toEqual(DTYPES);
      expect(ours.kinds).toEqual(KINDS);
    },
  ),
);

// ---------------------------------------------------------------- tf.Module, tf.function, tf.random

interface ModuleResult {
  tracking: Record<string, unknown>;
  training: { losses: number[]; w: number[]; b: number[]; trainable: string[] };
  signature: Record<string, string | number[]>;
  random: Record<string, unknown>;
}
interface ModuleReference {
  losses: number[];
  w: number[];
  b: number[];
  output: number[];
}

const spec = 'TensorSpec(shape=(None, 3), dtype=tf.float32, name=None)';
const castError = (from: string) =>
  `TypeError: Binding inputs to tf.function failed due to \`Can not cast ${from} to ${spec}\`. Received args: (<tf.Tensor: `;
const near = (value: unknown, want: number, tol: number, what: string) =>
  expect(Math.abs((value as number) - want), `${what}: ${String(value)}`).toBeLessThanOrEqual(tol);

describeAgainstFormulas<ModuleResult, ModuleReference>(
  'keras-tf-ops.test.ts',
  'tf.Module tracking and training, tf.function input_signature, tf.random statistics',
  'tracking, 3 SGD steps against float64 NumPy, signature errors and statistics on %s',
  {
    python,
    ours: MODULE_OURS,
    reference: MODULE_REFERENCE,
    input: {
      x: matrix(8, 3, 1),
      y: matrix(8, 2, 1),
      w: matrix(3, 2, 0.5),
      b: matrix(1, 2, 0.2)[0],
    },
    devices: devices.map((d) => tfName(d.name)),
  },
  (ours, reference) => {
    const { output, ...tracking } = ours.tracking;
    expect(tracking).toEqual({
      name: 'the_model',
      scope: 'the_model/',
      default_name: 'dense',
      submodules: ['Dense', 'Dense'],
      variables: ['b:0', 'w:0', 'b:0', 'w:0'],
      order: [true, true, true, true],
      types: 'tuple tuple',
      // Sorted attributes (alias, dense, frozen, items, z), the shared variable once, list and
      // dict entries in nest order (dict by key), then the Keras layer's kernel and bias.
      bag: ['shared:0', 'frozen:0', 'l0:0', 'da:0', 'db:0'],
      bag_counts: [7, 6, 1],
      bag_submodules: 1,
      holder: [3, 2], // a Python Keras layer's weight and a Dense's kernel and bias
      nested: 'outer/inner/v:0',
      with_name_scope: 'blk/inner:0',
      repr: "<tf.Variable 'v:0'",
      bad_name:
        "ValueError: 'has space' is not a valid module name. Module names must be valid Python identifiers (e.g. a valid class name).",
    });
    expectNear(output as number[], reference.output, 1e-5, 'SequentialModule output');
    expect(ours.training.trainable).toEqual(['b:0', 'w:0']);
    expectNear(ours.training.losses, reference.losses, 1e-4, 'losses');
    expectNear(ours.training.w, reference.w, 1e-4, 'w after 3 steps');
    expectNear(ours.training.b, reference.b, 1e-4, 'b after 3 steps');

    const s = ours.signature;
    expect(s.spec).toBe(spec);
    expect(s.spec_named).toBe("TensorSpec(shape=(3,), dtype=tf.int32, name='x')");
    expect(s.spec_scalar).toBe('TensorSpec(shape=(), dtype=tf.float32, name=None)');
    expect(s.list_ok).toEqual([2, 4, 6]);
    const signatureEnd = `and kwargs: {} for signature: (x: ${spec}).`;
    for (const [key, from] of [
      ['shape', 'TensorSpec(shape=(2, 4), dtype=tf.float32, name=None)'],
      ['rank', 'TensorSpec(shape=(3,), dtype=tf.float32, name=None)'],
      ['dtype', 'TensorSpec(shape=(1, 3), dtype=tf.int32, name=None)'],
      ['method_shape', 'TensorSpec(shape=(2, 2), dtype=tf.float32, name=None)'],
    ]) {
      expect(s[key], key).toContain(castError(from));
      expect((s[key] as string).endsWith(signatureEnd), `${key}: ${String(s[key])}`).toBe(true);
    }
    expect(s.extra).toContain(
      'TypeError: Binding inputs to tf.function failed due to `too many positional arguments`.',
    );
    expect(s.plain).toEqual([3]);

    const r = ours.random;
    const [tMean, tStd, tMax] = r.truncated as number[];
    near(tMean, 1, 0.12, 'truncated_normal mean');
    // The standard deviation of a unit normal truncated to ±2: 0.8796; times stddev 2.
    near(tStd, 2 * 0.8796, 0.07, 'truncated_normal std');
    expect(tMax).toBeLessThanOrEqual(4 + 1e-5);
    expect(tMax).toBeGreaterThan(3.5);
    near((r.normal as number[])[0], -1, 0.05, 'normal mean');
    near((r.normal as number[])[1], 0.5, 0.03, 'normal std');
    expect(r.uniform_int).toEqual([2, 4, 'tf.int32']);
    (r.uniform_int_counts as number[]).forEach((c, i) =>
      near(c, 1000, 150, `uniform int ${i + 2}`),
    );
    const [uMin, uMax, uMean] = r.uniform as number[];
    expect(uMin).toBeGreaterThanOrEqual(-1);
    expect(uMax).toBeLessThan(3);
    near(uMean, 1, 0.1, 'uniform mean');
    expect(r.uniform_int_no_maxval).toBe(
      'ValueError: Must specify maxval for integer dtype tf.int32',
    );
    expect(r.shuffle).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const [drawShape, counts] = r.categorical as [number[], number[]];
    expect(drawShape).toEqual([1, 3000]);
    [0.1, 0.6, 0.3].forEach((p, k) => near(counts[k], 3000 * p, 130, `categorical class ${k}`));
    expectNear(r.dropout_values as number[], [0, 1 / 0.75], 1e-6, 'dropout values');
    near(r.dropout_kept, 0.75, 0.03, 'dropout kept fraction');
    const [rowStd, rowValues] = r.dropout_rows as [number, number[]];
    expect(rowStd).toBe(0); // noise_shape [200, 1]: a row is kept or dropped whole
    expect(rowValues).toEqual([0, 2]);
    expect(r.dropout_bad_rate).toContain('ValueError: ');
    expect(r.dropout_bad_rate).toContain('[0, 1), got 1');
  },
);
