/**
 * F.pad and F.interpolate, with PyTorch's index rules. Constant padding is a concatenation with
 * blocks of the value (a negative pad crops); reflect, replicate and circular padding and nearest
 * resizing pick source indices along each axis (index_select, whose gradient adds back); linear
 * and bilinear resizing weigh two neighbours per output, an axis map run as a matrix product
 * (ops/separable.ts). Every piece is an engine op, so both backends and autograd come with them.
 */
import { formatShape, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { full, fromHost } from './creation';
import { adaptiveAvgPool1d, adaptiveAvgPool2d } from './pool-avg';
import { alongAxis, type AxisMap } from './separable';
import { cat, indexSelect, narrow } from './shape-ops';
import { inputsDevice, requireFloat, scoped } from './support';

export type PadMode = 'constant' | 'reflect' | 'replicate' | 'circular';

/** Source index of padded position j (j − left is the input's own index) along an axis of n. */
const SOURCE: Record<Exclude<PadMode, 'constant'>, (i: number, n: number) => number> = {
  reflect: (i, n) => {
    const period = 2 * (n - 1);
    const k = (((i % period) + period) % period) as number;
    return k < n ? k : period - k;
  },
  replicate: (i, n) => Math.min(Math.max(i, 0), n - 1),
  circular: (i, n) => ((i % n) + n) % n,
};

function gather(x: Tensor, dim: number, indices: number[]): Tensor {
  const index = fromHost(Int32Array.from(indices), [indices.length], {
    device: x.deviceObject,
  });
  return indexSelect(x, dim, index);
}

function padConstant(x: Tensor, dim: number, left: number, right: number, value: number): Tensor {
  let y = x;
  // Negative pads crop first, as PyTorch's constant_pad_nd narrows before it fills.
  if (left < 0 || right < 0) {
    const start = Math.max(-left, 0);
    const length = y.shape[dim] - start - Math.max(-right, 0);
    if (length < 0)
      throw new ShapeError(
        `pad: the padding crops more than dimension ${dim} of ${formatShape(x.shape)} holds`,
      );
    y = narrow(y, dim, start, length);
  }
  const block = (n: number) => {
    const shape = [...y.shape];
    shape[dim] = n;
    return full(shape, value, { device: x.deviceObject, dtype: x.dtype });
  };
  const parts = [...(left > 0 ? [block(left)] : []), y, ...(right > 0 ? [block(right)] : [])];
  return parts.length === 1 ? y : cat(parts, dim);
}

/**
 * torch.nn.functional.pad: `pad` lists (left, right) pairs from the last dimension backwards.
 * Non-constant modes pad the last 1, 2 or 3 dims of a batched or unbatched input, as PyTorch's.
 */
export function pad(
  x: Tensor,
  padding: readonly number[],
  mode: PadMode = 'constant',
  value = 0,
): Tensor {
  inputsDevice('pad', x);
  if (padding.length % 2 !== 0 || padding.some((p) => !Number.isInteger(p)))
    throw new ShapeError(`pad: padding length must be divisible by 2, got [${padding.join(', ')}]`);
  const pairs = padding.length / 2;
  if (pairs > x.ndim)
    throw new ShapeError(
      `pad: padding length too large: [${padding.join(', ')}] pads ${pairs} dims of ${formatShape(x.shape)}`,
    );
  if (mode !== 'constant') {
    if (pairs > 3 || (x.ndim !== pairs + 1 && x.ndim !== pairs + 2))
      throw new ShapeError(
        `pad: ${mode} padding of ${pairs} dims needs a ${pairs + 1}-D or ${pairs + 2}-D input, got ${formatShape(x.shape)}`,
      );
    requireFloat('pad', x);
  }
  return scoped(() => {
    let y = x;
    for (let k = 0; k < pairs; k++) {
      const dim = x.ndim - 1 - k;
      const [left, right] = [padding[2 * k], padding[2 * k + 1]];
      if (left === 0 && right === 0) continue;
      if (mode === 'constant') {
        y = padConstant(y, dim, left, right, value);
        continue;
      }
      const n = y.shape[dim];
      const limit = mode === 'reflect' ? n - 1 : mode === 'circular' ? n : Infinity;
      if (left < 0 || right < 0 || left > limit || right > limit || n === 0)
        throw new ShapeError(
          `pad: ${mode} padding (${left}, ${right}) of dimension ${dim} of ${formatShape(x.shape)} ` +
            (mode === 'reflect'
              ? 'must be non-negative and less than that dimension'
              : 'must be non-negative and at most that dimension'),
        );
      const source = SOURCE[mode];
      y = gather(
        y,
        dim,
        Array.from({ length: left + n + right }, (_, j) => source(j - left, n)),
      );
    }
    return y;
  });
}

export type InterpolateMode = 'nearest' | 'nearest-exact' | 'linear' | 'bilinear' | 'area';

export interface InterpolateOptions {
  size?: number | number[] | null;
  scaleFactor?: number | number[] | null;
  mode?: InterpolateMode;
  alignCorners?: boolean | null;
  recomputeScaleFactor?: boolean | null;
}

const f32 = Math.fround;

/** PyTorch's compute_scales_value in float32: 1/scale_factor when given, else in/out. */
function scaleValue(scale: number | null, size: number, out: number): number {
  return scale !== null && scale > 0 ? f32(1 / scale) : f32(size / out);
}

/**
 * upsample_nearest's nearest_idx: the source of output index o; with `exact`
 * (mode='nearest-exact') the output pixel's centre, ⌊(o + ½)·scale⌋, and no shortcuts.
 */
function nearestIndices(size: number, out: number, scale: number | null, exact: boolean): number[] {
  const s = scaleValue(scale, size, out);
  return Array.from({ length: out }, (_, o) => {
    if (exact) return Math.min(Math.floor(f32(f32(o + 0.5) * s)), size - 1);
    if (out === size) return o;
    if (out === 2 * size) return o >> 1;
    return Math.min(Math.floor(f32(o * s)), size - 1);
  });
}

/** upsample_linear's two neighbours and weights per output index, as a map of the axis. */
function linearMap(
  size: number,
  out: number,
  alignCorners: boolean,
  scale: number | null,
): AxisMap {
  const s = alignCorners
    ? out > 1
      ? f32((size - 1) / (out - 1))
      : 0
    : scaleValue(scale, size, out);
  const weights = new Float32Array(out * size);
  for (let o = 0; o < out; o++) {
    const real = alignCorners ? f32(s * o) : Math.max(f32(f32(s * (o + 0.5)) - 0.5), 0);
    const i0 = Math.floor(real);
    const i1 = i0 < size - 1 ? i0 + 1 : i0;
    const lambda1 = Math.min(Math.max(f32(real - i0), 0), 1);
    weights[o * size + i0] += f32(1 - lambda1);
    weights[o * size + i1] += lambda1;
  }
  return { out, in: size, weights };
}

/** The input rank a mode needs (0: any of 3 and 4). */
const MODE_RANK: Record<InterpolateMode, number> = {
  nearest: 0,
  'nearest-exact': 0,
  linear: 3,
  bilinear: 4,
  area: 0,
};

/** torch.nn.functional.interpolate over x [N, C, L] or [N, C, H, W]. */
export function interpolate(x: Tensor, options: InterpolateOptions = {}): Tensor {
  inputsDevice('interpolate', x);
  requireFloat('interpolate', x);
  const mode = options.mode ?? 'nearest';
  if (!(mode in MODE_RANK))
    throw new Error(
      `interpolate: mode '${String(mode)}' is not supported (only ${Object.keys(MODE_RANK).join(', ')})`,
    );
  const { size = null, scaleFactor = null, recomputeScaleFactor = null } = options;
  let alignCorners = options.alignCorners ?? null;
  if (mode === 'nearest' || mode === 'nearest-exact' || mode === 'area') {
    if (alignCorners !== null)
      throw new Error(
        'align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear',
      );
  } else alignCorners ??= false;
  if (x.ndim !== 3 && x.ndim !== 4)
    throw new ShapeError(
      `interpolate: expected a 3-D [N, C, L] or 4-D [N, C, H, W] input, got ${formatShape(x.shape)}`,
    );
  if (MODE_RANK[mode] !== 0 && MODE_RANK[mode] !== x.ndim)
    throw new ShapeError(
      `interpolate: got ${x.ndim}D input, but ${mode} mode needs ${MODE_RANK[mode]}D input`,
    );
  const dims = x.ndim - 2;
  const sizes = x.shape.slice(2);
  let outs: number[];
  let scales: (number | null)[] = new Array<number | null>(dims).fill(null);
  if (size !== null && scaleFactor !== null)
    throw new Error('only one of size or scale_factor should be defined');
  if (size !== null) {
    if (recomputeScaleFactor)
      throw new Error('recompute_scale_factor is not meaningful with an explicit size.');
    outs = Array.isArray(size) ? size : new Array<number>(dims).fill(size);
    if (outs.length !== dims)
      throw new ShapeError(
        `Input and output must have the same number of spatial dimensions, but got input with ` +
          `spatial dimensions of [${sizes.join(', ')}] and output size of [${outs.join(', ')}]`,
      );
  } else if (scaleFactor !== null) {
    const factors = Array.isArray(scaleFactor)
      ? scaleFactor
      : new Array<number>(dims).fill(scaleFactor);
    if (factors.length !== dims)
      throw new ShapeError(
        `Input and scale_factor must have the same number of spatial dimensions, but got input ` +
          `with spatial dimensions of [${sizes.join(', ')}] and scale_factor of [${factors.join(', ')}]`,
      );
    outs = sizes.map((s, i) => Math.floor(s * factors[i]));
    // Without recomputation the kernels use the given factors, not in/out.
    if (!recomputeScaleFactor) scales = factors;
  } else throw new Error('either size or scale_factor should be defined');
  if (outs.some((o) => !Number.isInteger(o) || o < 1))
    throw new ShapeError(
      `interpolate: output size [${outs.join(', ')}] must be positive (input ${formatShape(x.shape)})`,
    );
  // 'area' is adaptive average pooling to the output size.
  if (mode === 'area')
    return dims === 1 ? adaptiveAvgPool1d(x, outs[0]) : adaptiveAvgPool2d(x, [outs[0], outs[1]]);
  return scoped(() => {
    let y = x;
    for (let k = 0; k < dims; k++) {
      const axis = dims - 1 - k;
      const dim = 2 + axis;
      if (mode === 'nearest' || mode === 'nearest-exact') {
        const exact = mode === 'nearest-exact';
        const indices = nearestIndices(sizes[axis], outs[axis], scales[axis], exact);
        if (exact || outs[axis] !== sizes[axis]) y = gather(y, dim, indices);
      } else {
        y = alongAxis(
          y,
          k === 0 ? -1 : -2,
          linearMap(sizes[axis], outs[axis], alignCorners === true, scales[axis]),
        );
      }
    }
    return y;
  });
}
