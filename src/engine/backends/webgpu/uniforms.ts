/**
 * Packs a dispatch's shapes, strides, offsets and scalars into its 64-word parameter slot, so one
 * compiled shader serves every shape; also merges dimensions so kernels see the smallest rank.
 */

/** Highest rank a kernel's parameter layout holds. */
export const MAX_RANK = 6;

const scratch = new DataView(new ArrayBuffer(4));

/** f32 bit pattern of a number (rounded to f32 the way a Float32Array store rounds it). */
export function f32Bits(value: number): number {
  scratch.setFloat32(0, value, true);
  return scratch.getUint32(0, true);
}

/** Writes words of one parameter slot of the queue's staging array (by name: params.ts). */
export class ParamBlock {
  words: Uint32Array = new Uint32Array(0);
  base = 0;

  u32(index: number, value: number): this {
    this.words[this.base + index] = value >>> 0;
    return this;
  }

  /** Signed values (strides may be negative) wrap to the same u32 bits WGSL arithmetic expects. */
  i32(index: number, value: number): this {
    this.words[this.base + index] = value | 0;
    return this;
  }
}

/** A shape with per-operand strides after merging dimensions. */
export interface Coalesced {
  readonly shape: number[];
  /** strides[k] are operand k's strides, one per dimension of `shape`. */
  readonly strides: number[][];
}

/**
 * Drops size-1 dimensions and merges neighbours that every operand walks as one (stride[d] ==
 * stride[d+1] * shape[d+1]), so a contiguous or scalar-broadcast tensor of any rank becomes rank 1
 * and kernels skip most index arithmetic. Always returns at least one dimension.
 */
export function coalesce(
  shape: readonly number[],
  strides: readonly (readonly number[])[],
): Coalesced {
  const outShape: number[] = [];
  const outStrides: number[][] = strides.map(() => []);
  for (let d = 0; d < shape.length; d++) {
    const size = shape[d];
    if (size === 1) continue;
    const last = outShape.length - 1;
    const mergeable = last >= 0 && strides.every((s, k) => outStrides[k][last] === s[d] * size);
    if (mergeable) {
      outShape[last] *= size;
      strides.forEach((s, k) => (outStrides[k][last] = s[d]));
    } else {
      outShape.push(size);
      strides.forEach((s, k) => outStrides[k].push(s[d]));
    }
  }
  if (outShape.length === 0) {
    outShape.push(1);
    strides.forEach((_, k) => outStrides[k].push(0));
  }
  return { shape: outShape, strides: outStrides };
}

export function elementCount(shape: readonly number[]): number {
  let n = 1;
  for (const size of shape) n *= size;
  return n;
}

export function checkRank(kernel: string, rank: number): void {
  if (rank > MAX_RANK) {
    throw new Error(`${kernel}: rank ${rank} after merging dimensions exceeds ${MAX_RANK}`);
  }
}
