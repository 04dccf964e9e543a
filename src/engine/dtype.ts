/** Element types: their sizes, host array types, names users may spell them with, and promotion. */
import type { DType, TypedArray } from './backend';

export type { DType, TypedArray };

export const DTYPES: readonly DType[] = ['float32', 'int32'];

/** Both element types are 4 bytes, which keeps buffer arithmetic and WGSL bindings uniform. */
export function bytesPerElement(_dtype: DType): number {
  return 4;
}

export function allocateHostArray(dtype: DType, length: number): TypedArray {
  return dtype === 'int32' ? new Int32Array(length) : new Float32Array(length);
}

export function dtypeOfArray(data: TypedArray): DType {
  return data instanceof Int32Array ? 'int32' : 'float32';
}

const aliases: Record<string, DType> = {
  float32: 'float32',
  float: 'float32',
  'torch.float32': 'float32',
  'torch.float': 'float32',
  'tf.float32': 'float32',
  int32: 'int32',
  int: 'int32',
  'torch.int32': 'int32',
  'torch.int': 'int32',
  'tf.int32': 'int32',
  // There is no 64-bit integer type on WebGPU; labels and indices written as int64/long use int32.
  int64: 'int32',
  long: 'int32',
  'torch.int64': 'int32',
  'torch.long': 'int32',
  'tf.int64': 'int32',
};

export function isDTypeName(value: unknown): value is string {
  return typeof value === 'string' && value in aliases;
}

/** Accepts 'float32', 'int32' and the spellings torch/tf users write; throws on anything else. */
export function parseDType(value: unknown, where = 'dtype'): DType {
  if (typeof value === 'string' && value in aliases) return aliases[value];
  throw new TypeError(
    `${where}: unsupported dtype ${JSON.stringify(value)}; use 'float32' or 'int32'`,
  );
}

/** The result type of a binary op, as in PyTorch: any float operand makes the result float. */
export function promoteTypes(a: DType, b: DType): DType {
  return a === 'float32' || b === 'float32' ? 'float32' : 'int32';
}

/** A JS number joins an int tensor as an int only when it is an integer (2 stays int, 2.5 floats). */
export function promoteWithScalar(t: DType, scalar: number): DType {
  return t === 'int32' && Number.isInteger(scalar) ? 'int32' : 'float32';
}
