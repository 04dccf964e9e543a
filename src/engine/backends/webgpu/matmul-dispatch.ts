/**
 * Records one matrix product with a named kernel variant: picks the register, shared-memory or
 * register-blocked kernel (with its fused epilogue), writes the parameter slot and dispatches.
 */
import registerWgsl from '../../../../kernels/matmul.wgsl?raw';
import type { KernelContext } from './context';
import { wrapGpu } from './gpu-buffer';
import { blockedGroups, blockedKernel, vec4Fits, type Epilogue } from './matmul-blocked';
import { reduce } from './reduce';
import { MATMUL } from './param-layouts';
import { tiledGroups, tiledKernel } from './matmul-tiled';
import { blockedSpecOf, defaultMatmulVariant, tiledSpecOf, type MatmulVariant } from './variants';

const registerSource = MATMUL.source(registerWgsl);

export interface MatmulShape {
  readonly batch: number;
  readonly m: number;
  readonly n: number;
  readonly k: number;
}

/**
 * A rectangle of an NCHW output's pixels that a product's rows cover, image by image: `width` x
 * `height` pixels from pixel `origin` of images `imageWidth` pixels wide.
 */
export interface PixelWindow {
  readonly width: number;
  readonly height: number;
  readonly imageWidth: number;
  readonly origin: number;
}

/** A [B, M, K] or [B, K, N] operand as the kernels address it: buffer, offset, three strides. */
export interface Operand {
  readonly gpu: GPUBuffer;
  readonly offset: number;
  readonly strides: readonly [number, number, number];
  /**
   * Offset tables replacing the row (A) / column (B) and k strides: element (i, k) of batch b is
   * at offset + b * strides[0] + table[outer + i] + table[table.k + k] (an image read as im2col
   * columns).
   */
  readonly table?: OffsetTable;
}

/** Where a gathered operand's offsets live: one u32 buffer, two runs of word indexes. */
export interface OffsetTable {
  readonly buffer: GPUBuffer;
  /** Index of the first row (A) or column (B) offset. */
  readonly outer: number;
  /** Index of the first k offset. */
  readonly k: number;
}

const aligned = (...values: number[]): boolean => values.every((v) => v % 4 === 0);

/** Most batches in one dispatch (one grid axis). */
const MAX_BATCH_PER_DISPATCH = 65535;

/** Whether the device was opened with subgroups (quad broadcasts and swaps). */
export function hasSubgroups(ctx: KernelContext): boolean {
  return ctx.device.features.has('subgroups');
}

/** Records one product with the given variant (all batches). */
export function dispatchVariant(
  ctx: KernelContext,
  variant: MatmulVariant,
  a: Operand,
  b: Operand,
  out: GPUBuffer,
  shape: MatmulShape,
  epilogue: Epilogue & {
    biasBuffer?: GPUBuffer;
    biasOffset?: number;
    pixels?: number;
    /** With nchw: rows cover this window of each image's pixels (default: all of them). */
    window?: PixelWindow;
    /** Sum the batch's products into one [M, N] output. */
    sumBatches?: boolean;
  } = {},
): void {
  const { batch, m, n, k } = shape;
  const [sab, sam, sak] = a.strides;
  const [sbb, sbk, sbn] = b.strides;
  let groups: [number, number];
  let kernel;
  const blocked = blockedSpecOf(variant);
  if (a.table && b.table) throw new Error('matmul: only one operand can be gathered');
  const table = a.table ?? b.table;
  const gather = a.table ? 'a' : b.table ? 'b' : undefined;
  const fused =
    epilogue.bias || epilogue.relu || epilogue.nchw || epilogue.sumBatches || gather !== undefined;
  if (blocked || fused) {
    let spec = blocked ?? blockedSpecOf(defaultMatmulVariant(hasSubgroups(ctx)))!;
    // A quad variant asked for where subgroups are missing runs its plain twin.
    if (spec.quad && !hasSubgroups(ctx)) spec = { ...spec, quad: false };
    // A swapping variant needs a column of each lane's own in the matrix (edgeColumn): with fewer
    // than 4 columns it runs its broadcasting twin.
    if (spec.swap && n < 4) spec = { ...spec, swap: false };
    // A vec4 variant asked for where the operands are not vec4-addressable (strided, unaligned,
    // K or N not a multiple of 4, an offset table) runs its scalar twin.
    if (spec.vec4 && (gather || !vec4Fits(k, n, a, b))) spec = { ...spec, vec4: false };
    kernel = blockedKernel(ctx, spec, { ...epilogue, gather });
    groups = blockedGroups(spec, m, n);
  } else if (variant === 'register') {
    const flags: string[] = [];
    if (sak === 1 && k % 4 === 0 && aligned(a.offset, sam, sab)) flags.push('A_VEC_K');
    else if (sam === 1 && m % 4 === 0 && aligned(a.offset, sak, sab)) flags.push('A_VEC_M');
    if (sbn === 1 && n % 4 === 0 && aligned(b.offset, sbk, sbb)) flags.push('B_VEC_N');
    else if (sbk === 1 && k % 4 === 0 && aligned(b.offset, sbn, sbb)) flags.push('B_VEC_K');
    if (n % 4 === 0) flags.push('OUT_VEC');
    // Thin products (a few rows) get 4-row tiles and wide workgroups, so fewer invocations compute
    // clamped rows that are never stored.
    const tileRows = m <= 4 ? 4 : 8;
    if (tileRows === 4) flags.push('TM4');
    const [wgx, wgy] = m <= 4 ? [64, 1] : [8, 8];
    kernel = ctx.kernel(
      'matmul',
      `${flags.join(',')}|${wgx}x${wgy}`,
      'wrr',
      registerSource,
      () => ({
        flags,
        values: { WGX: wgx, WGY: wgy },
      }),
    );
    groups = [Math.ceil(n / 8 / wgx), Math.ceil(m / tileRows / wgy)];
  } else {
    const spec = tiledSpecOf(variant);
    if (!spec) throw new Error(`matmul: unknown variant ${variant}`);
    const flags: string[] = [];
    if (sak === 1) flags.push('A_K_MAJOR');
    if (sbn === 1) flags.push('B_N_MAJOR');
    kernel = tiledKernel(ctx, spec, flags);
    groups = tiledGroups(spec, m, n);
  }
  const buffers = [out, a.gpu, b.gpu];
  if (epilogue.bias && epilogue.biasBuffer) buffers.push(epilogue.biasBuffer);
  if (table) buffers.push(table.buffer);
  if (epilogue.sumBatches) {
    // Pieces each apply the epilogue, so only a plain sum is split.
    const plainSum = !epilogue.bias && !epilogue.relu && !epilogue.nchw;
    const pieces = plainSum ? summedPieces(groups, batch) : 1;
    if (pieces === 1) {
      writeParams(ctx, shape, a, b, 0, epilogue, batch);
      ctx.run(kernel, buffers, [groups[0], groups[1], 1]);
      return;
    }
    // Few outputs over many products (a weight gradient summed over a batch of images): pieces
    // of the batch are summed in parallel into partial outputs, then added up by the reduce
    // kernel, so the device is not left with a handful of workgroups.
    const perPiece = Math.ceil(batch / pieces);
    const count = Math.ceil(batch / perPiece);
    const partial = ctx.pool.acquire(count * m * n * 4);
    writeParams(ctx, shape, a, b, 0, epilogue, perPiece, batch);
    ctx.run(kernel, [partial, ...buffers.slice(1)], [groups[0], groups[1], count]);
    reduce(
      ctx,
      'sum',
      {
        buffer: wrapGpu(partial),
        dtype: 'float32',
        shape: [m * n, count],
        strides: [1, m * n],
        offset: 0,
      },
      1,
      { buffer: wrapGpu(out), dtype: 'float32', shape: [m * n], strides: [1], offset: 0 },
    );
    ctx.pool.recycle(partial);
    return;
  }
  for (let base = 0; base < batch; base += MAX_BATCH_PER_DISPATCH) {
    writeParams(ctx, shape, a, b, base, epilogue, 1);
    ctx.run(kernel, buffers, [
      groups[0],
      groups[1],
      Math.min(MAX_BATCH_PER_DISPATCH, batch - base),
    ]);
  }
}

/**
 * Workgroups a summed product should fill the device with: below it, the batch's sum is split
 * into parallel pieces. Enough for both cores of a CPU emulation several times over, and a fair
 * share of a GPU's.
 */
const MIN_SUMMED_WORKGROUPS = 64;

/** Into how many parallel pieces a summed product's batch is cut (1: one pass, no partials). */
function summedPieces(groups: [number, number], batch: number): number {
  const workgroups = groups[0] * groups[1];
  if (workgroups >= MIN_SUMMED_WORKGROUPS || batch < 4) return 1;
  // Each piece sums at least two products, so the partials stay smaller than the inputs.
  return Math.min(Math.ceil(MIN_SUMMED_WORKGROUPS / workgroups), Math.floor(batch / 2));
}

function writeParams(
  ctx: KernelContext,
  { m, n, k }: MatmulShape,
  a: Operand,
  b: Operand,
  base: number,
  epilogue: { pixels?: number; window?: PixelWindow; biasOffset?: number },
  summed: number,
  /** Products in all, where summed pieces stop (a plain product never stops early). */
  total = 0xffffffff,
): void {
  const [sab, sam, sak] = a.strides;
  const [sbb, sbk, sbn] = b.strides;
  const table = a.table ?? b.table;
  const { pixels = 1, window } = epilogue;
  ctx
    .params(MATMUL)
    .set('m', m)
    .set('n', n)
    .set('k', k)
    .set('batchBase', base)
    .set('aOffset', a.offset)
    .set('aBatchStride', sab)
    .set('aRowStride', sam)
    .set('aKStride', sak)
    .set('bOffset', b.offset)
    .set('bBatchStride', sbb)
    .set('bKStride', sbk)
    .set('bColStride', sbn)
    .set('pixels', pixels)
    .set('windowPixels', window ? window.width * window.height : pixels)
    .set('windowWidth', window?.width ?? pixels)
    .set('imageWidth', window?.imageWidth ?? pixels)
    .set('windowOrigin', window?.origin ?? 0)
    .set('biasOffset', epilogue.biasOffset ?? 0)
    .set('summed', summed)
    .set('tableOuter', table?.outer ?? 0)
    .set('tableK', table?.k ?? 0)
    .set('total', total);
}
