/**
 * Implicit-GEMM convolution: the register-blocked matmul reads the image through two offset tables
 * as if it were its im2col columns (element (pixel, tap) of the columns is x[rowTable[pixel] +
 * tapTable[tap]]), so the [N*oH*oW, C*kH*kW] column matrix is never written nor read back. Used
 * for the forward product (bias and NCHW output fused) and the weight gradient (images summed in
 * the kernel). A padded convolution first copies the image into a zero-bordered scratch buffer
 * (kernels/pad.wgsl): one pass over the input, where checking every load of the product for the
 * border would cost on every multiply-add (measured: +45% on a 5x5 input gradient on SwiftShader).
 * A large one is also split into windows of its output (conv-windows.ts), each a product over the
 * taps its pixels read inside the image.
 */
import type { Conv2dGeometry, OutView, View } from '../../backend';
import padWgsl from '../../../../kernels/pad.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { gpuOf, outputOf, wrapGpu } from './gpu-buffer';
import { indexSelect } from './index-select';
import { chooseMatmulVariant } from './matmul';
import {
  dispatchVariant,
  type OffsetTable,
  type Operand,
  type PixelWindow,
} from './matmul-dispatch';
import { TRIAL_MACS } from './matmul-tune';
import { outputWindows, wholeWindow, type OutputWindow } from './conv-windows';
import { PAD } from './param-layouts';

const padSource = PAD.source(padWgsl);

/**
 * Most tables kept per device: a model has a handful of convolution shapes, and a split one a
 * table per window (conv-windows.ts).
 */
const MAX_TABLES = 256;

const tableCache = new WeakMap<KernelContext, Map<string, GPUBuffer>>();

/** Offsets of a window's taps (c, kh, kw) for the given strides of channels, rows and columns. */
function windowTaps(
  g: Conv2dGeometry,
  { rows, cols }: OutputWindow,
  [sc, sh, sw]: readonly number[],
): number[] {
  const out: number[] = [];
  for (let c = 0; c < g.inChannels; c++)
    for (let kh = rows.lo; kh <= rows.hi; kh++)
      for (let kw = cols.lo; kw <= cols.hi; kw++) out.push(c * sc + kh * sh + kw * sw);
  return out;
}

/** Offsets of a window's taps in an image of NCHW `strides`, from its pixels' top-left element. */
function imageTaps(g: Conv2dGeometry, w: OutputWindow, strides: readonly number[]): number[] {
  const [, sc, sh, sw] = strides;
  return windowTaps(g, w, [sc, g.dilationH * sh, g.dilationW * sw]);
}

/** Offsets of a window's output pixels' windows (their top-left input element) in one image. */
function windowPixels(
  g: Conv2dGeometry,
  { rows, cols }: OutputWindow,
  strides: readonly number[],
): number[] {
  const [, , sh, sw] = strides;
  const out: number[] = [];
  for (let oh = rows.start; oh < rows.start + rows.count; oh++)
    for (let ow = cols.start; ow < cols.start + cols.count; ow++)
      out.push(oh * g.strideH * sh + ow * g.strideW * sw);
  return out;
}

/** Images of a product to tune it on: about TRIAL_MACS multiply-adds, at least one image. */
function trialImages(batch: number, macsPerImage: number): number {
  return Math.max(1, Math.min(batch, Math.floor(TRIAL_MACS / macsPerImage)));
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
  const n = weight.shape[0];
  if (g.batch * g.outHeight * g.outWidth === 0 || n === 0 || g.inChannels === 0) return;
  const image = unpadded(ctx, x, g);
  const { products, weights } = windowProducts(
    ctx,
    image,
    weight,
    g,
    outputWindows(ctx.overrides, g, n),
  );
  const epilogue = {
    bias: bias !== null,
    nchw: true,
    pixels: g.outHeight * g.outWidth,
    biasBuffer: bias ? gpuOf(bias) : undefined,
    biasOffset: bias?.offset ?? 0,
  };
  // Among the blocked family (the one that reads offset tables), timed on the first images of
  // the largest window; the other windows run the same variant.
  const pixelsOf = (p: WindowProduct) => p.window.width * p.window.height;
  const largest = products.reduce((a, b) => (pixelsOf(b) * b.k > pixelsOf(a) * a.k ? b : a));
  const perImage = pixelsOf(largest);
  const images = trialImages(g.batch, perImage * n * largest.k);
  const variant = chooseMatmulVariant(
    ctx,
    {
      batch: 1,
      m: g.batch * perImage,
      n,
      k: largest.k,
      aLayout: 'k',
      bLayout: 'k',
      blockedOnly: true,
      gathered: true,
    },
    {
      outBytes: images * n * epilogue.pixels * 4,
      macs: images * perImage * n * largest.k,
      record: (candidate, target) =>
        dispatchVariant(
          ctx,
          candidate,
          largest.a,
          largest.b,
          target,
          { batch: 1, m: images * perImage, n, k: largest.k },
          { ...epilogue, window: largest.window },
        ),
    },
  );
  for (const p of products) {
    const shape = { batch: 1, m: g.batch * pixelsOf(p), n, k: p.k };
    dispatchVariant(ctx, variant, p.a, p.b, outputOf(out), shape, {
      ...epilogue,
      window: p.window,
    });
  }
  if (weights) ctx.pool.recycle(weights);
  if (image.scratch) ctx.pool.recycle(image.scratch);
}

/** One window's product: its gathered image, its weight's taps, and where its rows go. */
interface WindowProduct {
  readonly a: Operand;
  readonly b: Operand;
  readonly k: number;
  readonly window: PixelWindow;
}

/**
 * Each window's product. One window reads the weight in place as Wᵀ [taps, O]; several read their
 * taps' rows of Wᵀ gathered, all windows' in one dispatch, into `weights` ([Σ taps, O]).
 */
function windowProducts(
  ctx: KernelContext,
  image: Image,
  weight: View,
  g: Conv2dGeometry,
  windows: readonly OutputWindow[],
): { products: WindowProduct[]; weights: GPUBuffer | null } {
  const o = weight.shape[0];
  const taps = g.inChannels * g.kernelHeight * g.kernelWidth;
  const key = `${geometryKey(image.geometry, image.strides)}|${windows.map((w) => [...Object.values(w.rows), ...Object.values(w.cols)])}`;
  let weights: GPUBuffer | null = null;
  if (windows.length > 1) {
    const rows = offsetTable(ctx, `weights|${key}`, () =>
      windows.flatMap((w) => windowTaps(g, w, [g.kernelHeight * g.kernelWidth, g.kernelWidth, 1])),
    );
    const count = rows.size / 4;
    weights = ctx.pool.acquire(count * o * 4);
    indexSelect(
      ctx,
      { ...weight, shape: [taps, o], strides: [1, taps] },
      { buffer: wrapGpu(rows), dtype: 'int32', shape: [count], strides: [1], offset: 0 },
      { buffer: wrapGpu(weights), dtype: 'float32', shape: [count, o], strides: [o, 1], offset: 0 },
    );
  }
  let first = 0;
  const products = windows.map((w) => {
    const k = g.inChannels * (w.rows.hi - w.rows.lo + 1) * (w.cols.hi - w.cols.lo + 1);
    // Wᵀ [k, O]: the weight [O, k] read transposed, or the window's gathered rows.
    const b: Operand = weights
      ? { gpu: weights, offset: first * o, strides: [0, o, 1] }
      : { gpu: gpuOf(weight), offset: weight.offset, strides: [0, 1, k] };
    first += k;
    return { ...windowImage(ctx, image, g, w, key), b, k };
  });
  return { products, weights };
}

/** A window's rows of the image's columns (offset tables: its pixels, then its taps) and output. */
function windowImage(
  ctx: KernelContext,
  image: Image,
  g: Conv2dGeometry,
  w: OutputWindow,
  key: string,
): { a: Operand; window: PixelWindow } {
  const { rows, cols } = w;
  const { strides } = image;
  const buffer = offsetTable(
    ctx,
    `window|${key}|${Object.values(rows)},${Object.values(cols)}`,
    () => {
      const perImage = windowPixels(g, w, strides);
      const table: number[] = [];
      for (let i = 0; i < g.batch; i++) for (const p of perImage) table.push(i * strides[0] + p);
      return [...table, ...imageTaps(g, w, strides)];
    },
  );
  const m = g.batch * rows.count * cols.count;
  const a: Operand = {
    gpu: image.gpu,
    offset: image.offset,
    strides: [0, 0, 0],
    table: { buffer, outer: 0, k: m },
  };
  const window = {
    width: cols.count,
    height: rows.count,
    imageWidth: g.outWidth,
    origin: rows.start * g.outWidth + cols.start,
  };
  return { a, window };
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
  const whole = wholeWindow(geometry);
  const buffer = offsetTable(ctx, `taps|${geometryKey(geometry, strides)}`, () => [
    ...imageTaps(geometry, whole, strides),
    ...windowPixels(geometry, whole, strides),
  ]);
  const table: OffsetTable = { buffer, outer: 0, k: n };
  const shape = { batch: g.batch, m, n, k: pixels };
  const a: Operand = { gpu: gpuOf(grad), offset: grad.offset, strides: [m * pixels, pixels, 1] };
  const b: Operand = { gpu: image.gpu, offset: image.offset, strides: [strides[0], 0, 0], table };
  // Timed on the sum over the first images.
  const images = trialImages(g.batch, m * n * pixels);
  const slice = { ...shape, batch: images };
  const variant = chooseMatmulVariant(
    ctx,
    { ...shape, summed: true, aLayout: 'k', bLayout: 'n', gathered: true },
    {
      outBytes: m * n * 4,
      macs: images * m * n * pixels,
      record: (candidate, target) =>
        dispatchVariant(ctx, candidate, a, b, target, slice, { sumBatches: true }),
    },
  );
  dispatchVariant(ctx, variant, a, b, outputOf(out), shape, { sumBatches: true });
  if (image.scratch) ctx.pool.recycle(image.scratch);
}
