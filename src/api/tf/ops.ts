/**
 * TensorFlow's tensor functions at `tf.*` (and their `tf.math.*` / `tf.linalg.*` names) with
 * TensorFlow's signatures, over the engine's ops: gathering and masking, joining and splitting,
 * reductions with `axis`/`keepdims`, top_k, one_hot, where, clip_by_value, cumsum, einsum, shape
 * functions and comparisons. Nothing is computed here that the engine does not compute; every
 * float result is differentiable through the engine's autograd (so through tf.GradientTape).
 *
 * Where TensorFlow's result size depends on the values (boolean_mask, where with one argument)
 * the TS names are async (`await tf.booleanMask(t, m)`, `await tf.whereAsync(c)`), as they must
 * read the mask back from the device; Python's `tf.boolean_mask` / `tf.where(c)` wait for them.
 */
import { defaultDevice, ops, Tensor, type DType } from '../../engine';
import { asInt, asNumber, asShape, bindArgs, boolArg, describe, dtypeArg, optional } from '../args';
import { ValueError } from '../tf-config';
import { axesArg, axisIndex, floatOf, tensorList, tensorOf } from './tensor-args';

type Fn = (...args: unknown[]) => Tensor;

const sig = (name: string, params: readonly string[]) => ({ name, params: [...params, 'name'] });

// ---------------------------------------------------------------- reductions

/** The product over `dims` through cumprod (its backward is the engine's, zeros included). */
function prodOver(x: Tensor, dims: number[] | undefined, keepdims: boolean): Tensor {
  const reduced = dims ?? x.shape.map((_, i) => i);
  const kept = x.shape.map((_, i) => i).filter((i) => !reduced.includes(i));
  const n = reduced.reduce((p, d) => p * x.shape[d], 1);
  const rows = ops.reshape(ops.permute(x, [...kept, ...reduced]), [
    ...kept.map((d) => x.shape[d]),
    n,
  ]);
  const last = ops.narrow(ops.cumprod(rows, -1), -1, n - 1, 1);
  const keepShape = x.shape.map((s, i) => (reduced.includes(i) ? 1 : s));
  return ops.reshape(last, keepdims ? keepShape : kept.map((d) => x.shape[d]));
}

type Reducer = (x: Tensor, dims: number[] | undefined, keepdims: boolean) => Tensor;

const asFloat = (x: Tensor) => (x.dtype === 'float32' ? x : ops.cast(x, 'float32'));
const truth = (x: Tensor) => ops.cast(ops.ne(x, 0), 'int32');

const REDUCERS = {
  reduceSum: (x, d, k) => ops.sum(x, d, k),
  reduceMean: (x, d, k) => ops.mean(asFloat(x), d, k),
  reduceMax: (x, d, k) => ops.amax(x, d, k),
  reduceMin: (x, d, k) => ops.amin(x, d, k),
  reduceProd: prodOver,
  // bool results are int32 0/1 (Python marks them bool).
  reduceAny: (x, d, k) => ops.amax(truth(x), d, k),
  reduceAll: (x, d, k) => ops.amin(truth(x), d, k),
  // TensorFlow's are the population statistics (no Bessel correction).
  reduceStd: (x, d, k) => ops.std(asFloat(x), d, 0, k),
  reduceVariance: (x, d, k) => ops.variance(asFloat(x), d, 0, k),
  reduceEuclideanNorm: (x, d, k) => ops.sqrt(ops.sum(ops.square(asFloat(x)), d, k)),
  reduceLogsumexp: (x, d, k) => ops.logsumexp(asFloat(x), d ?? x.shape.map((_, i) => i), k),
} satisfies Record<string, Reducer>;

/** tf.reduce_*(input_tensor, axis=None, keepdims=False). */
function reduction(name: string, run: Reducer): Fn {
  return (...args) => {
    const a = bindArgs(sig(`tf.${name}`, ['inputTensor', 'axis', 'keepdims']), args);
    const x = tensorOf(a.inputTensor);
    const dims = axesArg(a.axis, x.ndim, `tf.${name}`);
    return run(x, dims, boolArg(a.keepdims, `tf.${name}: keepdims`));
  };
}

const reductions = Object.fromEntries(
  Object.entries(REDUCERS).map(([name, run]) => [name, reduction(name, run)]),
) as Record<keyof typeof REDUCERS, Fn>;

function argExtreme(name: 'argmax' | 'argmin'): Fn {
  return (...args) => {
    const a = bindArgs(sig(`tf.${name}`, ['input', 'axis', 'outputType']), args);
    const x = tensorOf(a.input);
    // TensorFlow's axis=None means axis 0 (not the flattened tensor, as NumPy's).
    const axis = axisIndex(optional(a.axis, asInt, 'axis', 0), x.ndim, `tf.${name}`);
    return ops[name](x, axis);
  };
}

// ---------------------------------------------------------------- gathering, masking

/**
 * tf.gather(params, indices, axis=None, batch_dims=0): params.shape[:axis] +
 * indices.shape[batch_dims:] + params.shape[axis+1:], the leading batch_dims dimensions of params
 * and indices paired (axis defaults to batch_dims).
 */
function gather(...args: unknown[]): Tensor {
  const a = bindArgs(
    sig('tf.gather', ['params', 'indices', 'validateIndices', 'axis', 'batchDims']),
    args,
  );
  const params = tensorOf(a.params);
  const indices = tensorOf(a.indices, 'int32');
  let batchDims = optional(a.batchDims, asInt, 'batch_dims', 0);
  if (batchDims < 0) batchDims += indices.ndim;
  const axis = axisIndex(optional(a.axis, asInt, 'axis', batchDims), params.ndim, 'tf.gather');
  const batchShape = params.shape.slice(0, batchDims);
  if (
    batchDims > axis ||
    batchDims > indices.ndim ||
    batchShape.some((s, i) => s !== indices.shape[i])
  )
    throw new ValueError(
      `tf.gather: batch_dims ${batchDims} must be <= axis ${axis} and the first batch_dims dimensions of params [${params.shape.join(', ')}] and indices [${indices.shape.join(', ')}] must agree`,
    );
  const outShape = [
    ...params.shape.slice(0, axis),
    ...indices.shape.slice(batchDims),
    ...params.shape.slice(axis + 1),
  ];
  if (batchDims === 0) {
    const picked = ops.indexSelect(params, axis, ops.reshape(indices, [indices.numel()]));
    return ops.reshape(picked, outShape);
  }
  // Batches as rows of one table: [B, M, P, N] → [B·P, M·N], the indices offset by b·P.
  const prod = (dims: readonly number[]) => dims.reduce((p, d) => p * d, 1);
  const [b, m, p, n] = [
    prod(batchShape),
    prod(params.shape.slice(batchDims, axis)),
    params.shape[axis],
    prod(params.shape.slice(axis + 1)),
  ];
  const k = prod(indices.shape.slice(batchDims));
  const table = ops.reshape(ops.permute(ops.reshape(params, [b, m, p, n]), [0, 2, 1, 3]), [
    b * p,
    m * n,
  ]);
  const offsets = ops.mul(ops.arange(0, b, 1, { device: indices.deviceObject, dtype: 'int32' }), p);
  const rows = ops.add(ops.reshape(indices, [b, k]), ops.unsqueeze(offsets, 1));
  const picked = ops.indexSelect(table, 0, ops.reshape(rows, [b * k]));
  const ordered = ops.permute(ops.reshape(picked, [b, k, m, n]), [0, 2, 1, 3]);
  return ops.reshape(ordered, outShape);
}

/** The row-major positions of a host array's nonzero entries. */
function nonzeroPositions(values: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) if (values[i]) out.push(i);
  return out;
}

/** tf.boolean_mask(tensor, mask, axis=None): reads the mask back, so it is async here. */
async function booleanMask(...args: unknown[]): Promise<Tensor> {
  const a = bindArgs(sig('tf.booleanMask', ['tensor', 'mask', 'axis']), args);
  const tensor = tensorOf(a.tensor);
  const mask = tensorOf(a.mask);
  const axis = axisIndex(optional(a.axis, asInt, 'axis', 0), tensor.ndim, 'tf.boolean_mask');
  const covered = tensor.shape.slice(axis, axis + mask.ndim);
  if (mask.ndim === 0) throw new ValueError('tf.boolean_mask: mask cannot be scalar.');
  if (covered.length !== mask.ndim || covered.some((s, i) => s !== mask.shape[i]))
    throw new ValueError(
      `tf.boolean_mask: shapes [${tensor.shape.join(', ')}] and [${mask.shape.join(', ')}] are incompatible (the mask must match the tensor's dimensions from axis ${axis})`,
    );
  const n = mask.numel();
  const keep = nonzeroPositions(await mask.data());
  const flat = ops.reshape(tensor, [
    ...tensor.shape.slice(0, axis),
    n,
    ...tensor.shape.slice(axis + mask.ndim),
  ]);
  const index = ops.fromData(keep, { device: tensor.deviceObject, dtype: 'int32' });
  return ops.indexSelect(flat, axis, index);
}

/** tf.where(condition, x, y): x where condition, else y, broadcast together. */
function where(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.where', ['condition', 'x', 'y']), args);
  const none = (v: unknown) => v === undefined || v === null;
  if (none(a.x) && none(a.y))
    throw new TypeError(
      'tf.where(condition) with one argument reads the values back: use await tf.whereAsync(condition)',
    );
  if (none(a.x) || none(a.y))
    throw new TypeError('tf.where: x and y must both be given, or neither');
  const x = tensorOf(a.x);
  const y = tensorOf(a.y);
  const dtype: DType = x.dtype === 'float32' || y.dtype === 'float32' ? 'float32' : x.dtype;
  return ops.where(tensorOf(a.condition), ops.cast(x, dtype), ops.cast(y, dtype));
}

/** tf.where(condition): the [n, rank] int32 (TensorFlow: int64) indices of the true elements. */
async function whereAsync(...args: unknown[]): Promise<Tensor> {
  const a = bindArgs(sig('tf.whereAsync', ['condition']), args);
  const condition = tensorOf(a.condition);
  const shape = condition.shape;
  const rows: number[] = [];
  for (const p of nonzeroPositions(await condition.data())) {
    const index: number[] = [];
    let rest = p;
    for (let d = shape.length - 1; d >= 0; d--) {
      index.unshift(rest % shape[d]);
      rest = Math.floor(rest / shape[d]);
    }
    rows.push(...index);
  }
  return ops.fromHost(
    Int32Array.from(rows),
    [rows.length / Math.max(shape.length, 1), shape.length],
    {
      device: condition.deviceObject,
      dtype: 'int32',
    },
  );
}

// ---------------------------------------------------------------- joining, splitting, shapes

function concat(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.concat', ['values', 'axis']), args);
  const values = tensorList(a.values, 'tf.concat: values');
  if (values.length === 0) throw new ValueError('tf.concat: values is an empty list');
  const axis = axisIndex(asInt(a.axis, 'tf.concat: axis'), values[0].ndim, 'tf.concat');
  return values.length === 1 ? values[0] : ops.cat(values, axis);
}

function stack(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.stack', ['values', 'axis']), args);
  const values = tensorList(a.values, 'tf.stack: values');
  if (values.length === 0) throw new ValueError('tf.stack: values is an empty list');
  const axis = axisIndex(optional(a.axis, asInt, 'axis', 0), values[0].ndim + 1, 'tf.stack');
  return ops.stack(values, axis);
}

function unstack(...args: unknown[]): Tensor[] {
  const a = bindArgs(sig('tf.unstack', ['value', 'num', 'axis']), args);
  const x = tensorOf(a.value);
  const axis = axisIndex(optional(a.axis, asInt, 'axis', 0), x.ndim, 'tf.unstack');
  if (a.num !== undefined && a.num !== null && asInt(a.num, 'num') !== x.shape[axis])
    throw new ValueError(
      `tf.unstack: num ${String(a.num)} != dimension ${x.shape[axis]} of axis ${axis}`,
    );
  return ops.unbind(x, axis);
}

/** tf.split(value, num_or_size_splits, axis=0): a number of equal pieces, or their sizes. */
function split(...args: unknown[]): Tensor[] {
  const a = bindArgs(sig('tf.split', ['value', 'numOrSizeSplits', 'axis', 'num']), args);
  const x = tensorOf(a.value);
  const axis = axisIndex(optional(a.axis, asInt, 'axis', 0), x.ndim, 'tf.split');
  const size = x.shape[axis];
  if (Array.isArray(a.numOrSizeSplits)) {
    const sizes = asShape(a.numOrSizeSplits, 'tf.split: num_or_size_splits');
    const total = sizes.reduce((t, n) => t + n, 0);
    if (total !== size)
      throw new ValueError(
        `tf.split: the sizes [${sizes.join(', ')}] add up to ${total}, not to dimension ${axis}'s size ${size}`,
      );
    return ops.split(x, sizes, axis);
  }
  const n = asInt(a.numOrSizeSplits, 'tf.split: num_or_size_splits');
  if (n <= 0 || size % n !== 0)
    throw new ValueError(
      `tf.split: Dimension ${axis} (of size ${size}) is not evenly divisible by num_or_size_splits ${n}`,
    );
  return ops.split(x, size / n, axis);
}

/** tf.reverse(tensor, axis): flipped along the listed axes. */
function reverse(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.reverse', ['tensor', 'axis']), args);
  const x = tensorOf(a.tensor);
  return ops.flip(x, axesArg(a.axis, x.ndim, 'tf.reverse') ?? []);
}

function transpose(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.transpose', ['a', 'perm', 'conjugate']), args);
  const x = tensorOf(a.a);
  const perm =
    a.perm === undefined || a.perm === null
      ? x.shape.map((_, i) => x.ndim - 1 - i)
      : asShape(a.perm, 'tf.transpose: perm');
  return ops.permute(x, perm);
}

function expandDims(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.expandDims', ['input', 'axis']), args);
  return ops.unsqueeze(tensorOf(a.input), asInt(a.axis, 'tf.expand_dims: axis'));
}

function squeeze(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.squeeze', ['input', 'axis']), args);
  const x = tensorOf(a.input);
  const dims = axesArg(a.axis, x.ndim, 'tf.squeeze');
  for (const d of dims ?? [])
    if (x.shape[d] !== 1)
      throw new ValueError(
        `tf.squeeze: Can not squeeze dim[${d}], expected a dimension of 1, got ${x.shape[d]}`,
      );
  return ops.squeeze(x, dims);
}

function tile(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.tile', ['input', 'multiples']), args);
  const x = tensorOf(a.input);
  const multiples = asShape(a.multiples, 'tf.tile: multiples');
  if (multiples.length !== x.ndim)
    throw new ValueError(
      `tf.tile: Expected multiples argument to be a vector of length ${x.ndim} but got length ${multiples.length}`,
    );
  return ops.repeat(x, multiples);
}

const intScalar = (n: number, like?: Tensor) =>
  ops.fromHost(Int32Array.of(n), [], {
    device: like?.deviceObject ?? defaultDevice('tf'),
    dtype: 'int32',
  });

function shape(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.shape', ['input', 'outType']), args);
  const x = tensorOf(a.input);
  return ops.fromHost(Int32Array.from(x.shape), [x.ndim], {
    device: defaultDevice('tf'),
    dtype: 'int32',
  });
}

function fill(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.fill', ['dims', 'value', 'dtype']), args);
  return ops.full(asShape(a.dims, 'tf.fill: dims'), asNumber(a.value, 'tf.fill: value'), {
    device: defaultDevice('tf'),
    dtype: dtypeArg(a.dtype),
  });
}

function filledLike(name: string, value: number): Fn {
  return (...args) => {
    const a = bindArgs(sig(`tf.${name}`, ['input', 'dtype']), args);
    const x = tensorOf(a.input);
    return ops.fullLike(x, value, dtypeArg(a.dtype) ?? x.dtype);
  };
}

function linspace(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.linspace', ['start', 'stop', 'num', 'axis']), args);
  const start = asNumber(a.start, 'start');
  const stop = asNumber(a.stop, 'stop');
  const num = asInt(a.num, 'tf.linspace: num');
  if (num < 1) throw new ValueError(`tf.linspace: num must be positive, got ${num}`);
  const step = num === 1 ? 0 : (stop - start) / (num - 1);
  const host = Float32Array.from({ length: num }, (_, i) =>
    i === num - 1 ? stop : start + i * step,
  );
  return ops.fromHost(host, [num], { device: defaultDevice('tf'), dtype: 'float32' });
}

// ---------------------------------------------------------------- values

/** tf.one_hot(indices, depth, on_value=1, off_value=0, axis=-1, dtype=float32). */
function oneHot(...args: unknown[]): Tensor {
  const a = bindArgs(
    sig('tf.oneHot', ['indices', 'depth', 'onValue', 'offValue', 'axis', 'dtype']),
    args,
  );
  const indices = tensorOf(a.indices, 'int32');
  const depth = asInt(a.depth, 'tf.one_hot: depth');
  const on = optional(a.onValue, asNumber, 'on_value', 1);
  const off = optional(a.offValue, asNumber, 'off_value', 0);
  const dtype = dtypeArg(a.dtype) ?? 'float32';
  // Compared with every class, so an index outside [0, depth) (-1 for "none") is all off_value.
  const classes = ops.arange(0, depth, 1, { device: indices.deviceObject, dtype: 'int32' });
  const hot = ops.cast(ops.eq(ops.unsqueeze(indices, -1), classes), 'float32');
  let out = ops.add(ops.mul(hot, on - off), off);
  const axis = optional(a.axis, asInt, 'axis', -1);
  if (axis !== -1) out = ops.movedim(out, -1, axisIndex(axis, out.ndim, 'tf.one_hot'));
  return dtype === 'float32' ? out : ops.cast(out, dtype);
}

/** tf.clip_by_value(t, clip_value_min, clip_value_max): numbers or broadcastable tensors. */
function clipByValue(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.clipByValue', ['t', 'clipValueMin', 'clipValueMax']), args);
  const t = tensorOf(a.t);
  const lo = a.clipValueMin;
  const hi = a.clipValueMax;
  if (typeof lo === 'number' && typeof hi === 'number') {
    if (lo > hi)
      throw new ValueError(`tf.clip_by_value: clip_value_min ${lo} > clip_value_max ${hi}`);
    return ops.clamp(t, lo, hi);
  }
  return ops.maximum(ops.minimum(t, tensorOf(hi, t.dtype)), tensorOf(lo, t.dtype));
}

/** tf.cumsum(x, axis=0, exclusive=False, reverse=False). */
function cumsum(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.cumsum', ['x', 'axis', 'exclusive', 'reverse']), args);
  const x = tensorOf(a.x);
  const axis = axisIndex(optional(a.axis, asInt, 'axis', 0), x.ndim, 'tf.cumsum');
  const reverse = boolArg(a.reverse, 'reverse');
  const along = reverse ? ops.flip(x, [axis]) : x;
  let out = ops.cumsum(along, axis);
  if (boolArg(a.exclusive, 'exclusive')) out = ops.sub(out, along);
  return reverse ? ops.flip(out, [axis]) : out;
}

/** tf.einsum(equation, *inputs). */
function einsum(equation: unknown, ...rest: unknown[]): Tensor {
  if (typeof equation !== 'string')
    throw new TypeError(`tf.einsum: equation must be a string, got ${describe(equation)}`);
  const last = rest[rest.length - 1];
  const inputs =
    last !== null && typeof last === 'object' && !Array.isArray(last) && !(last instanceof Tensor)
      ? rest.slice(0, -1) // the keyword arguments (name)
      : rest;
  const list = inputs.length === 1 && Array.isArray(inputs[0]) ? (inputs[0] as unknown[]) : inputs;
  return ops.einsum(
    equation,
    list.map((v) => tensorOf(v)),
  );
}

function direction(value: unknown): boolean {
  const d = value ?? 'ASCENDING';
  if (d !== 'ASCENDING' && d !== 'DESCENDING')
    throw new ValueError(
      `tf.sort: direction must be 'ASCENDING' or 'DESCENDING', got ${describe(d)}`,
    );
  return d === 'DESCENDING';
}

function sort(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.sort', ['values', 'axis', 'direction']), args);
  const x = tensorOf(a.values);
  return ops.sort(x, optional(a.axis, asInt, 'axis', -1), direction(a.direction))[0];
}

function argsort(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.argsort', ['values', 'axis', 'direction', 'stable']), args);
  const x = tensorOf(a.values);
  return ops.argsort(x, optional(a.axis, asInt, 'axis', -1), direction(a.direction));
}

/** tf.math.top_k(input, k=1, sorted=True): [values, indices] along the last axis. */
function topK(...args: unknown[]): Tensor[] {
  const a = bindArgs(sig('tf.math.topK', ['input', 'k', 'sorted', 'indexType']), args);
  const x = tensorOf(a.input);
  const k = optional(a.k, asInt, 'k', 1);
  const last = x.shape[x.ndim - 1];
  if (x.ndim === 0 || k < 0 || k > last)
    throw new ValueError(
      `tf.math.top_k: input must have at least k=${k} columns, got shape [${x.shape.join(', ')}]`,
    );
  return ops.topk(x, k, -1, true);
}

function binary(name: string, run: (x: Tensor, y: Tensor) => Tensor): Fn {
  return (...args) => {
    const a = bindArgs(sig(`tf.${name}`, ['x', 'y']), args);
    const x = tensorOf(a.x);
    return run(x, tensorOf(a.y, x.dtype));
  };
}

// Comparisons are int32 0/1 (the engine's bools; Python marks them tf.bool).
const comparisons = {
  equal: binary('equal', ops.eq),
  notEqual: binary('notEqual', ops.ne),
  less: binary('less', ops.lt),
  lessEqual: binary('lessEqual', ops.le),
  greater: binary('greater', ops.gt),
  greaterEqual: binary('greaterEqual', ops.ge),
};

const arithmetic = {
  maximum: binary('maximum', ops.maximum),
  minimum: binary('minimum', ops.minimum),
  pow: binary('pow', ops.pow),
  squaredDifference: binary('squaredDifference', (x, y) => ops.square(ops.sub(x, y))),
};

/** tf.round: to the nearest integer, halves to even (banker's rounding, as TensorFlow). */
function round(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.round', ['x']), args);
  const x = tensorOf(a.x);
  if (x.dtype !== 'float32') return x;
  const up = ops.floor(ops.add(x, 0.5));
  // A tie (x + 0.5 whole) landing on an odd number goes down to the even one.
  const tie = ops.cast(ops.eq(up, ops.add(x, 0.5)), 'float32');
  const odd = ops.sub(up, ops.mul(ops.floor(ops.mul(up, 0.5)), 2));
  return ops.sub(up, ops.mul(tie, odd));
}

function ceil(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.math.ceil', ['x']), args);
  const x = tensorOf(a.x);
  return x.dtype === 'float32' ? ops.neg(ops.floor(ops.neg(x))) : x;
}

/** tf.math.count_nonzero(input, axis=None, keepdims=False): int32 (TensorFlow: int64) counts. */
function countNonzero(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.math.countNonzero', ['input', 'axis', 'keepdims', 'dtype']), args);
  const x = tensorOf(a.input);
  const dims = axesArg(a.axis, x.ndim, 'tf.math.count_nonzero');
  return ops.sum(truth(x), dims, boolArg(a.keepdims, 'keepdims'));
}

/**
 * tf.math.confusion_matrix(labels, predictions, num_classes, weights): [n, n] counts (or summed
 * weights) of each (label, prediction) pair. num_classes is required here (inferring it reads
 * the values; Python's confusion_matrix does that for you).
 */
function confusionMatrix(...args: unknown[]): Tensor {
  const a = bindArgs(
    sig('tf.math.confusionMatrix', ['labels', 'predictions', 'numClasses', 'weights', 'dtype']),
    args,
  );
  const labels = tensorOf(a.labels, 'int32');
  const predictions = tensorOf(a.predictions, 'int32');
  if (a.numClasses === undefined || a.numClasses === null)
    throw new ValueError(
      'tf.math.confusion_matrix: give num_classes (inferring it would read the values back)',
    );
  const n = asInt(a.numClasses, 'tf.math.confusion_matrix: num_classes');
  if (labels.ndim !== 1 || predictions.ndim !== 1 || labels.shape[0] !== predictions.shape[0])
    throw new ValueError(
      `tf.math.confusion_matrix: labels [${labels.shape.join(', ')}] and predictions [${predictions.shape.join(', ')}] must be 1-D of the same length`,
    );
  const pairs = ops.add(ops.mul(labels, n), predictions);
  const cells = ops.arange(0, n * n, 1, { device: labels.deviceObject, dtype: 'int32' });
  let hits = ops.cast(ops.eq(ops.unsqueeze(pairs, -1), cells), 'float32');
  if (a.weights !== undefined && a.weights !== null)
    hits = ops.mul(hits, ops.unsqueeze(floatOf(a.weights), -1));
  const counts = ops.reshape(ops.sum(hits, 0), [n, n]);
  return ops.cast(counts, dtypeArg(a.dtype) ?? 'int32');
}

// ---------------------------------------------------------------- linalg

function eye(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.eye', ['numRows', 'numColumns', 'batchShape', 'dtype']), args);
  const rows = asInt(a.numRows, 'tf.eye: num_rows');
  const cols = optional(a.numColumns, asInt, 'num_columns', rows);
  const out = ops.eye(rows, cols, {
    device: defaultDevice('tf'),
    dtype: dtypeArg(a.dtype) ?? 'float32',
  });
  if (a.batchShape === undefined || a.batchShape === null) return out;
  const batch = asShape(a.batchShape, 'tf.eye: batch_shape');
  return ops.contiguous(ops.expand(out, [...batch, rows, cols]));
}

/** tf.norm(tensor, ord='euclidean', axis=None, keepdims=False): vector norms. */
function norm(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.norm', ['tensor', 'ord', 'axis', 'keepdims']), args);
  const x = floatOf(a.tensor);
  const ord = a.ord ?? 'euclidean';
  const p = ord === 'euclidean' || ord === 'fro' ? 2 : ord === 'inf' ? Infinity : ord;
  if (typeof p !== 'number')
    throw new ValueError(
      `tf.norm: ord must be 'euclidean', 'fro', 1, 2, np.inf or a positive number, got ${describe(ord)}`,
    );
  const dims = axesArg(a.axis, x.ndim, 'tf.norm') ?? x.shape.map((_, i) => i);
  return ops.vectorNorm(x, p, dims, boolArg(a.keepdims, 'keepdims'));
}

function matmul(...args: unknown[]): Tensor {
  const p = bindArgs(
    sig('tf.linalg.matmul', ['a', 'b', 'transposeA', 'transposeB', 'adjointA', 'adjointB']),
    args,
  );
  let a = tensorOf(p.a);
  let b = tensorOf(p.b);
  if (boolArg(p.transposeA, 'transpose_a') || boolArg(p.adjointA, 'adjoint_a'))
    a = ops.transpose(a, -1, -2);
  if (boolArg(p.transposeB, 'transpose_b') || boolArg(p.adjointB, 'adjoint_b'))
    b = ops.transpose(b, -1, -2);
  return ops.matmul(a, b);
}

function matrixTranspose(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.linalg.matrixTranspose', ['a', 'conjugate']), args);
  return ops.transpose(tensorOf(a.a), -1, -2);
}

function trace(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.linalg.trace', ['x']), args);
  const x = tensorOf(a.x);
  const mask = ops.eye(x.shape[x.ndim - 2], x.shape[x.ndim - 1], {
    device: x.deviceObject,
    dtype: x.dtype,
  });
  return ops.sum(ops.mul(x, mask), [x.ndim - 2, x.ndim - 1]);
}

// ---------------------------------------------------------------- the namespaces

const size = (...args: unknown[]): Tensor => {
  const a = bindArgs(sig('tf.size', ['input', 'outType']), args);
  const x = tensorOf(a.input);
  return intScalar(x.numel());
};
const rank = (...args: unknown[]): Tensor => {
  const a = bindArgs(sig('tf.rank', ['input']), args);
  return intScalar(tensorOf(a.input).ndim);
};

/** The functions TensorFlow has at `tf.math.*` (and also at `tf.*`). */
export const tfMathOps = {
  ...reductions,
  argmax: argExtreme('argmax'),
  argmin: argExtreme('argmin'),
  topK,
  cumsum,
  round,
  ceil,
  countNonzero,
  confusionMatrix,
  logSigmoid: (...args: unknown[]): Tensor => {
    const a = bindArgs(sig('tf.math.logSigmoid', ['x']), args);
    return ops.neg(ops.unaryOps.softplus(ops.neg(floatOf(a.x))));
  },
  ...comparisons,
  ...arithmetic,
};

/** `tf.linalg.*`. */
export const tfLinalg = { matmul, eye, norm, matrixTranspose, trace, einsum };

/** `tf.*`: spread into the tf object (api/tf.ts). */
export const tfOps = {
  ...reductions,
  argmax: argExtreme('argmax'),
  argmin: argExtreme('argmin'),
  gather,
  booleanMask,
  where,
  whereAsync,
  concat,
  stack,
  unstack,
  split,
  reverse,
  transpose,
  expandDims,
  squeeze,
  tile,
  shape,
  size,
  rank,
  fill,
  zerosLike: filledLike('zerosLike', 0),
  onesLike: filledLike('onesLike', 1),
  linspace,
  oneHot,
  clipByValue,
  cumsum,
  einsum,
  round,
  sort,
  argsort,
  eye,
  norm,
  ...comparisons,
  ...arithmetic,
  linalg: tfLinalg,
};
