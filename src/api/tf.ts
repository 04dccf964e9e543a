/**
 * `tf`: the TensorFlow-shaped names of API.md over the engine. Tensors made here go to gpu:0 when
 * there is one (TensorFlow's placement) or to the device of an enclosing `tf.device(name, fn)`;
 * `tf.config` configures devices (tf-config.ts) and `tf.distribute` trains on several
 * (distribute/). Later modules add keras and data.
 */
import { defaultDevice, manualSeed, ops, Tensor, withTfDevice, type DType } from '../engine';
import { asInt, asNumber, asShape, bindArgs, boolArg, dtypeArg, optional } from './args';
import { distribute } from './distribute';
import { tfNamespaces } from './elementwise-faces';
import { config } from './tf-config';
import { tfExtensions } from './tf/index';
// tf and tf.nn tensor functions, tf.linalg and tf.random (issue 37, area A).
import { tfMathFromNn, tfNnOps } from './tf/nn';
import { tfMathOps, tfOps } from './tf/ops';
import { tfRandom } from './tf/random';

export { PhysicalDevice, LogicalDevice, LogicalDeviceConfiguration } from './tf-config';

/** Anything tensor-like becomes a tensor on the tf default device. */
function convert(value: unknown, dtype?: DType): Tensor {
  if (value instanceof Tensor)
    return dtype && value.dtype !== dtype ? ops.cast(value, dtype) : value;
  return ops.fromData(value, { device: defaultDevice('tf'), dtype });
}

function axisArg(value: unknown, what: string): number | number[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map((v, i) => asInt(v, `${what}[${i}]`));
  return asInt(value, what);
}

const random = {
  /** tf.random.uniform(shape, minval = 0, maxval = 1). */
  uniform(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'tf.random.uniform', params: ['shape', 'minval', 'maxval', 'dtype', 'seed', 'name'] },
      args,
    );
    const low = optional(a.minval, asNumber, 'minval', 0);
    const high = optional(a.maxval, asNumber, 'maxval', 1);
    const dtype = dtypeArg(a.dtype) ?? 'float32';
    const shape = asShape(a.shape, 'tf.random.uniform: shape');
    if (dtype === 'int32') {
      const u = ops.random('uniform', shape, low, high, { device: defaultDevice('tf') });
      return ops.cast(ops.floor(u), 'int32');
    }
    return ops.random('uniform', shape, low, high, { device: defaultDevice('tf') });
  },
  /** tf.random.normal(shape, mean = 0, stddev = 1). */
  normal(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'tf.random.normal', params: ['shape', 'mean', 'stddev', 'dtype', 'seed', 'name'] },
      args,
    );
    return ops.random(
      'normal',
      asShape(a.shape, 'tf.random.normal: shape'),
      optional(a.mean, asNumber, 'mean', 0),
      optional(a.stddev, asNumber, 'stddev', 1),
      { device: defaultDevice('tf'), dtype: dtypeArg(a.dtype) },
    );
  },
  setSeed: (seed: number): void => {
    manualSeed(asInt(seed, 'tf.random.setSeed: seed'));
  },
};

function reduction(
  name: string,
  run: (t: Tensor, axis: number | number[] | undefined, keepdims: boolean) => Tensor,
) {
  return (...args: unknown[]): Tensor => {
    const a = bindArgs({ name, params: ['inputTensor', 'axis', 'keepdims', 'name'] }, args);
    return run(
      convert(a.inputTensor),
      axisArg(a.axis, `${name}: axis`),
      boolArg(a.keepdims, `${name}: keepdims`),
    );
  };
}

/** The element-wise table's TensorFlow rows: tf.exp, tf.math.exp, tf.nn.relu, … */
const tableOps = tfNamespaces((value) => convert(value));

export const tf = {
  Tensor,
  ...tableOps.tf,
  ...tfOps,
  math: { ...tableOps.math, ...tfMathOps, ...tfMathFromNn },
  nn: { ...tableOps.nn, ...tfNnOps },
  float32: 'float32' as DType,
  int32: 'int32' as DType,
  int64: 'int32' as DType,

  /** tf.constant(value, dtype?, shape?). */
  constant(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'tf.constant', params: ['value', 'dtype', 'shape', 'name'] }, args);
    const dtype = dtypeArg(a.dtype);
    const shape =
      a.shape === undefined || a.shape === null ? null : asShape(a.shape, 'tf.constant: shape');
    if (shape && typeof a.value === 'number')
      return ops.full(shape, a.value, { device: defaultDevice('tf'), dtype });
    const t = a.value instanceof Tensor ? ops.clone(a.value.detach()) : convert(a.value, dtype);
    return shape ? ops.reshape(t, shape) : t;
  },
  convertToTensor: (value: unknown, dtype?: string): Tensor => convert(value, dtypeArg(dtype)),
  cast(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'tf.cast', params: ['x', 'dtype', 'name'] }, args);
    return ops.cast(convert(a.x), dtypeArg(a.dtype) ?? 'float32');
  },
  /** tf.matmul(a, b, transposeA = false, transposeB = false). */
  matmul(...args: unknown[]): Tensor {
    const p = bindArgs(
      { name: 'tf.matmul', params: ['a', 'b', 'transposeA', 'transposeB', 'name'] },
      args,
    );
    let a = convert(p.a);
    let b = convert(p.b);
    if (boolArg(p.transposeA, 'transposeA')) a = ops.transpose(a, -1, -2);
    if (boolArg(p.transposeB, 'transposeB')) b = ops.transpose(b, -1, -2);
    return ops.matmul(a, b);
  },
  reduceSum: reduction('tf.reduceSum', (t, axis, keep) => ops.sum(t, axis, keep)),
  reduceMean: reduction('tf.reduceMean', (t, axis, keep) =>
    ops.mean(t.dtype === 'int32' ? ops.cast(t, 'float32') : t, axis, keep),
  ),
  reduceMax: reduction('tf.reduceMax', (t, axis, keep) => ops.amax(t, axis, keep)),
  reduceMin: reduction('tf.reduceMin', (t, axis, keep) => ops.amin(t, axis, keep)),
  /** tf.argmax(input, axis = 0). */
  argmax(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'tf.argmax', params: ['input', 'axis', 'outputType', 'name'] },
      args,
    );
    return ops.argmax(convert(a.input), optional(a.axis, asInt, 'axis', 0));
  },
  reshape(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'tf.reshape', params: ['tensor', 'shape', 'name'] }, args);
    return ops.reshape(convert(a.tensor), asShape(a.shape, 'tf.reshape: shape'));
  },
  zeros(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'tf.zeros', params: ['shape', 'dtype', 'name'] }, args);
    return ops.zeros(asShape(a.shape, 'tf.zeros: shape'), {
      device: defaultDevice('tf'),
      dtype: dtypeArg(a.dtype),
    });
  },
  ones(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'tf.ones', params: ['shape', 'dtype', 'name'] }, args);
    return ops.ones(asShape(a.shape, 'tf.ones: shape'), {
      device: defaultDevice('tf'),
      dtype: dtypeArg(a.dtype),
    });
  },
  isTensor: (value: unknown): value is Tensor => value instanceof Tensor,
  random: { ...random, ...tfRandom },
  config,
  distribute,
  /** tf.device('/gpu:0', () => { ... }): tensors made by tf inside fn (sync or async) go there. */
  device: <T>(name: string, fn: () => T): T => withTfDevice(name, fn),

  // Keras, tf.data, GradientTape, tf.function (src/api/tf/).
  ...tfExtensions,
};
