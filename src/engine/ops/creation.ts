/**
 * Making tensors: from nested arrays or typed arrays, constants, ranges, and seeded random
 * numbers. JS numbers carry no int/float distinction, so data defaults to float32 unless a dtype
 * is given or the data is an Int32Array (or another integer typed array).
 */
import type { DType, TypedArray } from '../backend';
import type { Device } from '../devices/device';
import { allocateHostArray } from '../dtype';
import { defaultGenerator, type Generator } from '../random';
import { checkShape, formatShape, ShapeError, type Shape } from '../shape';
import type { Tensor } from '../tensor';
import { emptyTensor, isTensor, kernelView } from './support';

export interface CreateOptions {
  dtype?: DType;
  device: Device;
  requiresGrad?: boolean;
}

function finish(t: Tensor, options: CreateOptions): Tensor {
  if (options.requiresGrad) t.requiresGrad = true;
  return t;
}

/** A host array as a tensor of `shape` on the device (one write, no kernel). */
export function fromHost(data: TypedArray, shape: Shape, options: CreateOptions): Tensor {
  const dtype = options.dtype ?? (data instanceof Int32Array ? 'int32' : 'float32');
  const out = emptyTensor(options.device, dtype, checkShape(shape, 'tensor'));
  if (data.length !== out.numel()) {
    throw new ShapeError(`tensor: ${data.length} values do not fill shape ${formatShape(shape)}`);
  }
  let values = data;
  if ((dtype === 'int32') !== data instanceof Int32Array) {
    values = allocateHostArray(dtype, data.length);
    values.set(data);
  }
  if (values.length > 0) options.device.backend.write(out.res.storage.buffer, values);
  return finish(out, options);
}

const INTEGER_ARRAYS = [
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
];

/** An integer typed array (any width or sign): host data that becomes an int32 tensor. */
export function isIntegerArray(v: ArrayBufferView): boolean {
  return INTEGER_ARRAYS.some((C) => v instanceof C);
}

/** Shape of nested arrays (checking they are rectangular) and their values flattened. */
function flattenNested(data: unknown): { shape: number[]; values: number[] } {
  const shape: number[] = [];
  let probe: unknown = data;
  while (Array.isArray(probe) || (ArrayBuffer.isView(probe) && !(probe instanceof DataView))) {
    const list = probe as ArrayLike<unknown>;
    shape.push(list.length);
    if (list.length === 0) break;
    probe = list[0];
  }
  const values: number[] = [];
  const visit = (value: unknown, dim: number, path: string): void => {
    if (dim === shape.length) {
      if (typeof value === 'boolean') values.push(value ? 1 : 0);
      else if (typeof value === 'number') values.push(value);
      else
        throw new TypeError(
          `tensor: expected a number at ${path || 'the top level'}, got ${typeof value}`,
        );
      return;
    }
    const isList =
      Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));
    if (!isList) {
      throw new ShapeError(
        `tensor: expected a sequence of length ${shape[dim]} at dim ${dim}${path ? ` (${path})` : ''}, got a number`,
      );
    }
    const list = value as ArrayLike<unknown>;
    if (list.length !== shape[dim]) {
      throw new ShapeError(
        `tensor: expected sequence of length ${shape[dim]} at dim ${dim} (got ${list.length}${path ? ` at ${path}` : ''})`,
      );
    }
    for (let i = 0; i < list.length; i++) visit(list[i], dim + 1, `${path}[${i}]`);
  };
  visit(data, 0, '');
  return { shape, values };
}

/** torch.tensor / tf.constant: nested arrays, a typed array, a number, or a tensor (copied). */
export function fromData(data: unknown, options: CreateOptions): Tensor {
  if (isTensor(data)) throw new TypeError('tensor: use t.clone() or t.detach() to copy a tensor');
  if (ArrayBuffer.isView(data) && !(data instanceof DataView)) {
    const view = data as unknown as ArrayLike<number>;
    const integer = isIntegerArray(data);
    const dtype = options.dtype ?? (integer ? 'int32' : 'float32');
    const host =
      data instanceof Float32Array || data instanceof Int32Array
        ? data
        : allocateHostArray(dtype, view.length);
    if (host !== data) host.set(view);
    return fromHost(host, [view.length], { ...options, dtype });
  }
  if (typeof data === 'number' || typeof data === 'boolean') {
    const dtype = options.dtype ?? 'float32';
    const host = allocateHostArray(dtype, 1);
    host[0] = Number(data);
    return fromHost(host, [], { ...options, dtype });
  }
  if (!Array.isArray(data)) {
    throw new TypeError(
      `tensor: expected nested arrays, a typed array or a number, got ${data === null ? 'null' : typeof data}`,
    );
  }
  const { shape, values } = flattenNested(data);
  const dtype = options.dtype ?? 'float32';
  const host = allocateHostArray(dtype, values.length);
  host.set(values);
  return fromHost(host, shape, { ...options, dtype });
}

export function full(shape: Shape, value: number, options: CreateOptions): Tensor {
  const dtype = options.dtype ?? 'float32';
  const out = emptyTensor(options.device, dtype, checkShape(shape, 'full'));
  if (out.numel() > 0) options.device.backend.fill(kernelView(out), value);
  return finish(out, options);
}

export const zeros = (shape: Shape, options: CreateOptions): Tensor => full(shape, 0, options);
export const ones = (shape: Shape, options: CreateOptions): Tensor => full(shape, 1, options);

export function fullLike(x: Tensor, value: number, dtype: DType = x.dtype): Tensor {
  return full(x.shape, value, { device: x.deviceObject, dtype });
}

/** Seeded random numbers: uniform in [a, b) or normal with mean a and std b. */
export function random(
  kind: 'uniform' | 'normal',
  shape: Shape,
  a: number,
  b: number,
  options: CreateOptions,
  generator: Generator = defaultGenerator,
): Tensor {
  if ((options.dtype ?? 'float32') !== 'float32') {
    throw new TypeError(`random tensors are float32; got dtype ${options.dtype}`);
  }
  if (kind === 'normal' && b < 0) throw new RangeError(`normal: std must be >= 0, got ${b}`);
  const out = emptyTensor(
    options.device,
    'float32',
    checkShape(shape, kind === 'uniform' ? 'rand' : 'randn'),
  );
  const params = generator.take(kind, out.numel(), a, b);
  if (out.numel() > 0) options.device.backend.random(kernelView(out), params);
  return finish(out, options);
}

export const rand = (shape: Shape, options: CreateOptions): Tensor =>
  random('uniform', shape, 0, 1, options);
export const randn = (shape: Shape, options: CreateOptions): Tensor =>
  random('normal', shape, 0, 1, options);

/** Values start, start+step, … below end (PyTorch's arange); int32 when all arguments are ints. */
export function arange(
  start: number,
  end: number,
  step: number,
  options: Omit<CreateOptions, 'dtype'> & { dtype?: DType },
): Tensor {
  if (step === 0) throw new RangeError('arange: step must be nonzero');
  const count = Math.max(0, Math.ceil((end - start) / step));
  const dtype = options.dtype ?? ([start, end, step].every(Number.isInteger) ? 'int32' : 'float32');
  const host = allocateHostArray(dtype, count);
  for (let i = 0; i < count; i++) host[i] = start + i * step;
  return fromHost(host, [count], { ...options, dtype });
}
