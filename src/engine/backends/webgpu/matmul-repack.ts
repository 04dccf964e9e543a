/**
 * Products whose operand rows lie a multiple of 4 KiB apart (a 1024- or 2048-wide float32
 * matrix): a workgroup walks a column panel of such an operand row by row, and every row of the
 * panel lands in the same few cache sets (on a CPU emulation, its L1; on a GPU, the same memory
 * channel), so the panel keeps evicting itself. Copying the operand once into rows padded by a
 * cache line spreads them out; whether the copy pays for itself is measured per shape class,
 * after the class's variant is chosen, by timing the product both ways on a proxy that keeps the
 * operand's real row stride (never decided by adapter name).
 */
import {
  matmulClassKey,
  MIN_TUNED_MACS,
  PROBE_KEYS,
  proxyShape,
  type MatmulClassInput,
} from './autotune';
import type { KernelContext } from './context';
import { dispatchVariant, type MatmulShape, type Operand } from './matmul-dispatch';
import { matchesReference, proxyData, proxyStrides } from './matmul-tune';
import { TRIAL_RUNS, tuneCandidates } from './trial-timing';
import { REPACKS, type MatmulVariant, type Repack } from './variants';

/** Rows this many bytes apart (or a multiple) share cache sets. */
const ALIAS_BYTES = 4096;

/** The stride between an operand's rows as its kernel walks them: the one that is not 1. */
function rowStride(strides: readonly [number, number, number]): number {
  if (strides[2] === 1) return strides[1];
  if (strides[1] === 1) return strides[2];
  return 0;
}

/** Whether an operand's rows lie a multiple of 4 KiB apart. */
export function aliases(strides: readonly [number, number, number]): boolean {
  const stride = rowStride(strides);
  return stride > 0 && (stride * 4) % ALIAS_BYTES === 0;
}

/** A row length of at least `length` elements, a multiple of 16 (vec4 loads) but not of 1024. */
export function paddedRow(length: number): number {
  const padded = Math.ceil(length / 16) * 16 + 16;
  return (padded * 4) % ALIAS_BYTES === 0 ? padded + 16 : padded;
}

/** Most rows copied for one product: each row is a command of its own. */
const MAX_COPIED_ROWS = 8192;

/** How many rows a padded copy of an operand of logical shape [batch, rows, cols] takes. */
function copiedRows(
  operand: Operand,
  [batch, rows, cols]: readonly [number, number, number],
): number {
  return (operand.strides[0] === 0 ? 1 : batch) * (operand.strides[2] === 1 ? rows : cols);
}

/**
 * Records a copy of an operand of logical shape [batch, rows, cols] into padded rows and returns
 * the copy as an operand, with the scratch buffer the caller recycles once the product is recorded.
 * Each contiguous row is one buffer-to-buffer copy (a memcpy, much cheaper than a shader pass on
 * a CPU emulation); the copy keeps the operand's orientation, and an operand shared by every
 * batch (batch stride 0) is copied once.
 */
export function padOperand(
  ctx: KernelContext,
  operand: Operand,
  shape: readonly [number, number, number],
): { operand: Operand; scratch: GPUBuffer } {
  const [batch, rows, cols] = shape;
  const [batchStride, s1, s2] = operand.strides;
  const copies = batchStride === 0 ? 1 : batch;
  const rowMajor = s2 === 1;
  const length = rowMajor ? cols : rows;
  const lines = rowMajor ? rows : cols;
  const stride = rowMajor ? s1 : s2;
  const row = paddedRow(length);
  const scratch = ctx.pool.acquire(copies * lines * row * 4);
  for (let c = 0; c < copies; c++) {
    for (let line = 0; line < lines; line++) {
      const from = operand.offset + c * batchStride + line * stride;
      ctx.queue.copy(operand.gpu, from * 4, scratch, (c * lines + line) * row * 4, length * 4);
    }
  }
  const outer = batchStride === 0 ? 0 : lines * row;
  const strides: [number, number, number] = rowMajor ? [outer, row, 1] : [outer, 1, row];
  return { operand: { gpu: scratch, offset: 0, strides }, scratch };
}

/** The operands a product would copy: those whose rows alias, as 'a', 'b' or 'ab'. */
function aliasedOperands(a: Operand, b: Operand): string {
  return (aliases(a.strides) ? 'a' : '') + (aliases(b.strides) ? 'b' : '');
}

/**
 * Whether to read the aliasing operands of a product through padded copies: forced, measured for
 * the class, or in place while that is unknown. The first product of a tuned class whose choice
 * is unknown starts the measurement.
 */
export function chooseRepack(
  ctx: KernelContext,
  input: MatmulClassInput,
  variant: MatmulVariant,
  a: Operand,
  b: Operand,
): Repack {
  const which = aliasedOperands(a, b);
  if (!which || a.table || b.table) return 'keep';
  const copied =
    (which.includes('a') ? copiedRows(a, [input.batch, input.m, input.k]) : 0) +
    (which.includes('b') ? copiedRows(b, [input.batch, input.k, input.n]) : 0);
  if (copied > MAX_COPIED_ROWS) return 'keep';
  const forced = ctx.overrides.repack;
  if (forced) return forced;
  if (input.batch * input.m * input.n * input.k < MIN_TUNED_MACS) return 'keep';
  const classKey = matmulClassKey(input);
  const key = `repack|${classKey.slice(classKey.indexOf('|') + 1)}|${which}` as const;
  const chosen = ctx.tuner.get(key);
  if (chosen) return chosen;
  // Measured with the class's own variant, so only once that is chosen; due as the class's
  // variants are (autotune.ts), its run being both ways on the proxy of tuneRepack.
  const proxy = proxyShape(input);
  const trialMacs =
    REPACKS.length * TRIAL_RUNS * proxy.batch * proxy.m * proxy.n * Math.min(input.k, 1024);
  const macs = input.batch * input.m * input.n * input.k;
  if (ctx.tuner.get(classKey) === variant && ctx.autotune && ctx.tuner.due(key, macs, trialMacs)) {
    const job = tuneRepack(ctx, input, variant, key, which, a, b);
    if (job) ctx.tuner.track(key, job);
  }
  // Until the class is measured: the choice probed for this adapter (default-probe.ts), if known.
  return ctx.tuner.get(PROBE_KEYS.repack) ?? 'keep';
}

/**
 * Times the class's variant on a proxy whose aliasing operands keep their real row stride, in
 * place and through padded copies (the copies timed too, so by wall clock), checks both outputs
 * against float64, and records the faster correct way. Returns null (try again later) while a
 * profiler is attached.
 */
function tuneRepack(
  ctx: KernelContext,
  input: MatmulClassInput,
  variant: MatmulVariant,
  key: `repack|${string}`,
  which: string,
  realA: Operand,
  realB: Operand,
): Promise<void> | null {
  const { queue } = ctx;
  if (queue.profiler) return null;
  // The class's proxy, but with up to 1024 rows of K: how much a panel's rows alias grows with
  // their number.
  const { batch, m, n } = proxyShape(input);
  const k = Math.min(input.k, 1024);
  const summed = input.summed ?? false;
  const proxy = (real: Operand, layout: string, rows: number, cols: number, aliased: boolean) => {
    const strides = proxyStrides(layout, rows, cols);
    if (!aliased) return strides;
    const stride = rowStride(real.strides);
    return (strides[2] === 1 ? [0, stride, 1] : [0, 1, stride]) as [number, number, number];
  };
  const sa = proxy(realA, input.aLayout, m, k, which.includes('a'));
  const sb = proxy(realB, input.bLayout, k, n, which.includes('b'));
  const aSize = (m - 1) * sa[1] + (k - 1) * sa[2] + 1;
  const bSize = (k - 1) * sb[1] + (n - 1) * sb[2] + 1;
  const hostA = proxyData(aSize, 3);
  const hostB = proxyData(bSize, 4);
  const a: Operand = { gpu: ctx.pool.acquire(aSize * 4), offset: 0, strides: sa };
  const b: Operand = { gpu: ctx.pool.acquire(bSize * 4), offset: 0, strides: sb };
  queue.write(a.gpu, hostA);
  queue.write(b.gpu, hostB);
  const shape: MatmulShape = { batch, m, n, k };
  const products = summed ? batch : 1;
  return tuneCandidates(ctx, key, REPACKS, {
    outBytes: (summed ? 1 : batch) * m * n * 4,
    record: (repack, out) => recordProduct(ctx, repack, variant, a, b, out, shape, summed),
    correct: (outputs, i) => matchesReference(outputs[i], hostA, hostB, sa, sb, m, n, k, products),
    scratch: [a.gpu, b.gpu],
    // By wall clock: timestamps would miss the copies, which are not compute passes.
    clock: 'wall',
  });
}

/** Records one product, reading aliasing operands in place or through padded copies. */
export function recordProduct(
  ctx: KernelContext,
  repack: Repack,
  variant: MatmulVariant,
  a: Operand,
  b: Operand,
  out: GPUBuffer,
  shape: MatmulShape,
  summed: boolean,
  epilogue: Omit<Parameters<typeof dispatchVariant>[6], 'sumBatches'> = {},
): void {
  const scratch: GPUBuffer[] = [];
  const padded = (operand: Operand, dims: readonly [number, number, number]): Operand => {
    if (repack === 'keep' || operand.table || !aliases(operand.strides)) return operand;
    const copy = padOperand(ctx, operand, dims);
    scratch.push(copy.scratch);
    return copy.operand;
  };
  const { batch, m, n, k } = shape;
  dispatchVariant(ctx, variant, padded(a, [batch, m, k]), padded(b, [batch, k, n]), out, shape, {
    ...epilogue,
    sumBatches: summed,
  });
  for (const buffer of scratch) ctx.pool.recycle(buffer);
}
