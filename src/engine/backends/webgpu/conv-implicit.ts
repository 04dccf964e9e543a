/**
 * Implicit-GEMM convolution: the register-blocked matmul reads the image through two offset tables
 * as if it were its im2col columns (element (pixel, tap) of the columns is x[rowTable[pixel] +
 * tapTable[tap]]), so the [N*oH*oW, C*kH*kW] column matrix is never written nor read back. Used
 * for the forward product (bias and NCHW output fused) and the weight gradient (images summed in
 * the kernel). A padded convolution first copies the image into a zero-bordered scratch buffer
 * (kernels/pad.wgsl): one pass over the input, where checking every load of the product for the
 * border would cost on every multiply-add (measured: +45% on a 5x5 input gradient on SwiftShader).
 */
import type { Conv2dGeometry, OutView, View } from '../../backend';
import padWgsl from '../../../../kernels/pad.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import { chooseMatmulVariant } from './matmul';
import { dispatchVariant, type OffsetTable, type Operand } from './matmul-dispatch';
import { TRIAL_MACS } from './matmul-tune';
import { PAD } from './param-layouts';

const padSource = PAD.source(padWgsl);

/** Most tables kept per device; a model has a handful of convolution shapes. */
const MAX_TABLES = 64;

const tableCache = new WeakMap<KernelContext, Map<string, GPUBuffer>>();

/** Offsets of every tap (c, kh, kw) of a window from its top-left input element. */
function tapOffsets(g: Conv2dGeometry, strides: readonly number[]): number[] {
  const [, sc, sh, sw] = strides;
  const out: number[] = [];
  for (let c = 0; c < g.inChannels; c++)
    for (let kh = 0; kh < g.kernelHeight; kh++)
      for (let kw = 0; kw < g.kernelWidth; kw++)
        out.push(c * sc + kh * g.dilationH * sh + kw * g.dilationW * sw);
  return out;
}

/** Offsets of every output pixel's window (top-left input element) within one image. */
function pixelOffsets(g: Conv2dGeometry, strides: readonly number[]): number[] {
  const [, , sh, sw] = strides;
  const out: number[] = [];
  for (let oh = 0; oh < g.outHeight; oh++)
    for (let ow = 0; ow < g.outWidth; ow++) out.push(oh * g.strideH * sh + ow * g.strideW * sw);
  return out;
}

/** A device buffer holding `offsets` (their u32 bits), cached by `key`. */
function offsetTable(ctx: KernelContext, key: string, build: () => number[]): GPUBuffer {
  let cache = tableCache.get(ctx);
  if (!cache) tableCache.set(ctx, (cache = new Map()));
  const hit = cache.get(key);
  if (hit) {
    // Most recently used last, so eviction drops the stalest.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const words = Uint32Array.from(build(), (v) => v >>> 0);
  const buffer = ctx.pool.acquire(words.byteLength);
  ctx.queue.write(buffer, words);
  cache.set(key, buffer);
  if (cache.size > MAX_TABLES) {
    const [oldest, stale] = cache.entries().next().value as [string, GPUBuffer];
    cache.delete(oldest);
    // Safe while recorded work still reads it: later users are encoded after that work.
    ctx.pool.recycle(stale);
  }
  return buffer;
}

const geometryKey = (g: Conv2dGeometry, strides: readonly number[]): string =>
  [...Object.values(g), ...strides].join(',');

/** The image a product reads: buffer, offset and NCHW strides, and the geometry to read it with. */
interface Image {
  readonly gpu: GPUBuffer;
  readonly offset: number;
  readonly strides: readonly number[];
  readonly geometry: Conv2dGeometry;
  /** A zero-bordered copy to recycle once the product is recorded, or null (x itself). */
  readonly scratch: GPUBuffer | null;
}

/** x itself when unpadded, else a zero-bordered copy read with the geometry without padding. */
function unpadded(ctx: KernelContext, x: View, g: Conv2dGeometry): Image {
  const { padH, padW } = g;
  if (padH === 0 && padW === 0) {
    return { gpu: gpuOf(x), offset: x.offset, strides: x.strides, geometry: g, scratch: null };
  }
  const [height, width] = [g.inHeight + 2 * padH, g.inWidth + 2 * padW];
  const rows = g.batch * g.inChannels * height;
  const scratch = ctx.pool.acquire(Math.max(4, rows * width * 4));
  const runs = Math.ceil(width / 64);
  const kernel = ctx.kernel('pad', '', 'wr', padSource, () => ({}));
  ctx
    .params(PAD)
    .set('batch', g.batch)
    .set('channels', g.inChannels)
    .set('height', g.inHeight)
    .set('width', g.inWidth)
    .set('padH', padH)
    .set('padW', padW)
    .set('runs', runs)
    .set('xOffset', x.offset)
    .list('xStrides', x.strides);
  ctx.run(kernel, [scratch, gpuOf(x)], grid64(rows * runs));
  return {
    gpu: scratch,
    offset: 0,
    strides: [g.inChannels * height * width, height * width, width, 1],
    geometry: { ...g, inHeight: height, inWidth: width, padH: 0, padW: 0 },
    scratch,
  };
}

/** out [N, O, oH, oW] = x [N, C, H, W] (any strides) ⊛ weight [O, C, kH, kW] (dense) + bias. */
export function conv2dImplicit(
  ctx: KernelContext,
  x: View,
  weight: View,
  bias: View | null,
  g: Conv2dGeometry,
  out: OutView,
): void {
  const pixels = g.outHeight * g.outWidth;
  const m = g.batch * pixels;
  const k = g.inChannels * g.kernelHeight * g.kernelWidth;
  const n = weight.shape[0];
  if (m === 0 || n === 0 || k === 0) return;
  const image = unpadded(ctx, x, g);
  const { geometry, strides } = image;
  const buffer = offsetTable(ctx, `rows|${geometryKey(geometry, strides)}`, () => {
    const perImage = pixelOffsets(geometry, strides);
    const rows: number[] = [];
    for (let i = 0; i < g.batch; i++) for (const p of perImage) rows.push(i * strides[0] + p);
    return [...rows, ...tapOffsets(geometry, strides)];
  });
  const table: OffsetTable = { buffer, outer: 0, k: m };
  const a: Operand = { gpu: image.gpu, offset: image.offset, strides: [0, 0, 0], table };
  // Wᵀ [CKK, O] read straight from the [O, CKK] weight.
  const b: Operand = { gpu: gpuOf(weight), offset: weight.offset, strides: [0, 1, k] };
  const epilogue = {
    bias: bias !== null,
    nchw: true,
    pixels,
    biasBuffer: bias ? gpuOf(bias) : undefined,
    biasOffset: bias?.offset ?? 0,
  };
  // Among the blocked family (the one that reads offset tables), timed on the first images.
  const images = Math.max(1, Math.min(g.batch, Math.floor(TRIAL_MACS / (pixels * n * k))));
  const slice = { batch: 1, m: images * pixels, n, k };
  const variant = chooseMatmulVariant(
    ctx,
    { batch: 1, m, n, k, aLayout: 'k', bLayout: 'k', blockedOnly: true, gathered: true },
    {
      outBytes: slice.m * n * 4,
      record: (candidate, target) => dispatchVariant(ctx, candidate, a, b, target, slice, epilogue),
    },
  );
  dispatchVariant(ctx, variant, a, b, outputOf(out), { batch: 1, m, n, k }, epilogue);
  if (image.scratch) ctx.pool.recycle(image.scratch);
}

/**
 * The weight gradient [O, C*kH*kW] (out, dense) = Σ over images of grad[n] [O, oH*oW] times the
 * image's columns, for grad [N, O, oH, oW] (dense) and x [N, C, H, W] (any strides).
 */
export function conv2dWeightGradImplicit(
  ctx: KernelContext,
  x: View,
  grad: View,
  g: Conv2dGeometry,
  out: OutView,
): void {
  const pixels = g.outHeight * g.outWidth;
  const m = grad.shape[1];
  const n = g.inChannels * g.kernelHeight * g.kernelWidth;
  if (g.batch === 0 || m === 0 || n === 0 || pixels === 0) return;
  const image = unpadded(ctx, x, g);
  const { geometry, strides } = image;
  const buffer = offsetTable(ctx, `taps|${geometryKey(geometry, strides)}`, () => [
    ...tapOffsets(geometry, strides),
    ...pixelOffsets(geometry, strides),
  ]);
  const table: OffsetTable = { buffer, outer: 0, k: n };
  const shape = { batch: g.batch, m, n, k: pixels };
  const a: Operand = { gpu: gpuOf(grad), offset: grad.offset, strides: [m * pixels, pixels, 1] };
  const b: Operand = { gpu: image.gpu, offset: image.offset, strides: [strides[0], 0, 0], table };
  // Timed on the sum over the first images.
  const images = Math.max(1, Math.min(g.batch, Math.floor(TRIAL_MACS / (m * n * pixels))));
  const slice = { ...shape, batch: images };
  const variant = chooseMatmulVariant(
    ctx,
    { ...shape, summed: true, aLayout: 'k', bLayout: 'n', gathered: true },
    {
      outBytes: m * n * 4,
      record: (candidate, target) =>
        dispatchVariant(ctx, candidate, a, b, target, slice, { sumBatches: true }),
    },
  );
  dispatchVariant(ctx, variant, a, b, outputOf(out), shape, { sumBatches: true });
  if (image.scratch) ctx.pool.recycle(image.scratch);
}
