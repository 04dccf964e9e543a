/**
 * Matrix products on the GPU: chooses a kernel variant per product — shape rules for thin products,
 * split-K for few outputs over a long K, otherwise the autotuner's choice for the shape class
 * (autotune.ts, matmul-tune.ts), reading operands whose rows alias in the cache through padded
 * copies where that measured faster (matmul-repack.ts) — and records it (matmul-dispatch.ts).
 */

import type { OutView, View } from '../../backend';
import { matmulClassKey, MIN_TUNED_MACS, type MatmulClassInput } from './autotune';
import type { KernelContext } from './context';
import { gpuOf, outputOf, wrapGpu } from './gpu-buffer';
import { dispatchVariant, hasSubgroups, type Operand } from './matmul-dispatch';
import { probedVariant } from './default-probe';
import { chooseRepack, recordProduct } from './matmul-repack';
import { tuneClass, tuningMacs, type MatmulTrial } from './matmul-tune';
import { reduce } from './reduce';
import { defaultMatmulVariant, type MatmulVariant } from './variants';

export { hasSubgroups, type MatmulShape } from './matmul-dispatch';

/** Strides of a [B, M, K] / [B, K, N] view with size-1 dimensions' strides zeroed (they never move). */
function strides3(view: View): [number, number, number] {
  const [s0, s1, s2] = view.strides;
  const [d0, d1, d2] = view.shape;
  return [d0 === 1 ? 0 : s0, d1 === 1 ? 0 : s1, d2 === 1 ? 0 : s2];
}

/** Layout letters of the tuner's class key. */
function layouts(
  sa: readonly number[],
  sb: readonly number[],
): Pick<MatmulClassInput, 'aLayout' | 'bLayout'> {
  const aLayout = sa[2] === 1 ? 'k' : sa[1] === 1 ? 'm' : 's';
  const bLayout = sb[2] === 1 ? 'n' : sb[1] === 1 ? 'k' : 's';
  return { aLayout, bLayout };
}

/**
 * Block shapes for thin products, chosen by shape (not by adapter): a few output columns (a
 * linear layer with one output, X @ w) put every invocation on rows; a few rows, on columns.
 */
function thinVariant(m: number, n: number): MatmulVariant | null {
  // A tiny output (a split-K piece of a weight gradient): one invocation, exactly its size.
  if (m <= 4 && n <= 4) return `s${m}x${n}@1x1`;
  // Up to 8 columns (a convolution's input gradient into 7 embedding channels): wider blocks would
  // compute mostly clamped copies of the last column.
  if (n <= 8 && m >= 64) return `s4x${n}@1x64`;
  if (m <= 8 && n >= 64) return `s${m}x4@64x1`;
  // A small output (the weight gradient of a first convolution layer, 32 x 9, summed over a
  // batch of images): small blocks, so a workgroup computes little past the edges, and the
  // batch's sum is what gets spread over the device (matmul-dispatch.ts).
  if (m * n <= 1024) return 's4x4@4x4';
  return null;
}

/**
 * The variant for a product: forced, tuned for its class, or the default until then (the tuner's
 * `due` says when the class's tuning run starts). With `trial` (a slice of the product itself), a
 * class is timed on it, not on a proxy.
 */
export function chooseMatmulVariant(
  ctx: KernelContext,
  input: MatmulClassInput,
  trial?: MatmulTrial,
): MatmulVariant {
  const forced = ctx.overrides.matmul;
  if (forced) return forced;
  const thin = thinVariant(input.m, input.n);
  if (thin) return thin;
  const fallback = defaultMatmulVariant(hasSubgroups(ctx));
  if (input.batch * input.m * input.n * input.k < MIN_TUNED_MACS) return fallback;
  // A product of real size: a queued tuning slice may follow it (tune-slices.ts).
  if (ctx.autotune) ctx.slices.afterUserOp();
  const key = matmulClassKey(input);
  const chosen = ctx.tuner.get(key);
  if (chosen) return chosen;
  const macs = input.batch * input.m * input.n * input.k;
  if (ctx.autotune && ctx.tuner.due(key, macs, tuningMacs(ctx, input, trial))) {
    const job = tuneClass(ctx, input, key, trial);
    if (job) ctx.tuner.track(key, job);
  }
  // Until the class is tuned: the default measured for this adapter (default-probe.ts), if known.
  const blockedOnly =
    trial !== undefined || (input.summed ?? false) || (input.blockedOnly ?? false);
  return probedVariant(ctx, blockedOnly, macs) ?? fallback;
}

export function matmul(
  ctx: KernelContext,
  a: View,
  b: View,
  out: OutView,
  epilogue: {
    bias?: View | null;
    relu?: boolean;
    nchw?: boolean;
    pixels?: number;
    sumBatches?: boolean;
  } = {},
): void {
  if (a.dtype !== 'float32' || b.dtype !== 'float32' || out.dtype !== 'float32') {
    throw new Error('matmul: WebGPU kernels take float32 operands');
  }
  const [batch, m, k] = a.shape;
  const n = b.shape[2];
  if (batch === 0 || m === 0 || n === 0) return;
  const sa = strides3(a);
  const sb = strides3(b);
  const summed = epilogue.sumBatches ?? false;
  const plain = !summed && !epilogue.bias && !epilogue.relu && !epilogue.nchw;
  if (plain && batch === 1 && splitK(ctx, a, b, out, m, n, k, sa, sb)) return;
  const input: MatmulClassInput = {
    batch,
    m,
    n,
    k,
    summed,
    blockedOnly: !plain,
    ...layouts(sa, sb),
  };
  const variant = chooseMatmulVariant(ctx, input);
  const bias = epilogue.bias ?? null;
  if (bias && bias.shape.length === 1 && bias.shape[0] > 1 && bias.strides[0] !== 1) {
    throw new Error('gemm: the bias must be contiguous');
  }
  const aOperand: Operand = { gpu: gpuOf(a), offset: a.offset, strides: sa };
  const bOperand: Operand = { gpu: gpuOf(b), offset: b.offset, strides: sb };
  recordProduct(
    ctx,
    chooseRepack(ctx, input, variant, aOperand, bOperand),
    variant,
    aOperand,
    bOperand,
    outputOf(out),
    { batch, m, n, k },
    summed,
    {
      bias: bias !== null,
      relu: epilogue.relu,
      nchw: epilogue.nchw,
      pixels: epilogue.pixels,
      biasBuffer: bias ? gpuOf(bias) : undefined,
      biasOffset: bias?.offset ?? 0,
    },
  );
}

/** K per split-K piece: long enough to amortize a piece, short enough to spread the work. */
const SPLIT_K_PIECE = 1024;

/**
 * A piece length within a quarter of SPLIT_K_PIECE that divides k, nearest first (a million rows:
 * 1000), so no leftover piece needs a product and a copy of its own; SPLIT_K_PIECE when none does.
 */
export function splitKPiece(k: number): number {
  for (let d = 0; d <= SPLIT_K_PIECE / 4; d++) {
    if (k % (SPLIT_K_PIECE - d) === 0) return SPLIT_K_PIECE - d;
    if (k % (SPLIT_K_PIECE + d) === 0) return SPLIT_K_PIECE + d;
  }
  return SPLIT_K_PIECE;
}

/**
 * Split-K for products with few outputs and a long K (a weight gradient Xᵀ @ g over a million
 * rows): K is cut into pieces multiplied as a batch in parallel (views, no copies), and the
 * partial products are summed by the reduce kernel. Returns false when the product is not one.
 */
function splitK(
  ctx: KernelContext,
  a: View,
  b: View,
  out: OutView,
  m: number,
  n: number,
  k: number,
  sa: readonly number[],
  sb: readonly number[],
): boolean {
  const outputs = m * n;
  if (outputs > 4096 || k < 8 * SPLIT_K_PIECE) return false;
  const piece = splitKPiece(k);
  const pieces = Math.floor(k / piece);
  const covered = pieces * piece;
  const rest = k - covered;
  const slots = pieces + (rest > 0 ? 1 : 0);
  const partial = ctx.pool.acquire(slots * outputs * 4);
  const shape = { batch: pieces, m, n, k: piece };
  const variant = chooseMatmulVariant(ctx, { ...shape, ...layouts(sa, sb) });
  dispatchVariant(
    ctx,
    variant,
    { gpu: gpuOf(a), offset: a.offset, strides: [piece * sa[2], sa[1], sa[2]] },
    { gpu: gpuOf(b), offset: b.offset, strides: [piece * sb[1], sb[1], sb[2]] },
    partial,
    shape,
  );
  if (rest > 0) {
    // The leftover K goes to its own slot; kernels write outputs from element 0, so through a
    // scratch buffer copied into place.
    const tail = ctx.pool.acquire(outputs * 4);
    const tailShape = { batch: 1, m, n, k: rest };
    dispatchVariant(
      ctx,
      chooseMatmulVariant(ctx, { ...tailShape, ...layouts(sa, sb) }),
      { gpu: gpuOf(a), offset: a.offset + covered * sa[2], strides: [0, sa[1], sa[2]] },
      { gpu: gpuOf(b), offset: b.offset + covered * sb[1], strides: [0, sb[1], sb[2]] },
      tail,
      tailShape,
    );
    ctx.queue.copy(tail, 0, partial, pieces * outputs * 4, outputs * 4);
    ctx.pool.recycle(tail);
  }
  // Sum the slots: a [outputs, slots] view of the partials reduced over its last dimension.
  reduce(
    ctx,
    'sum',
    {
      buffer: wrapGpu(partial),
      dtype: 'float32',
      shape: [outputs, slots],
      strides: [1, outputs],
      offset: 0,
    },
    1,
    { ...out, shape: [outputs], strides: [1] },
  );
  ctx.pool.recycle(partial);
  return true;
}
