/**
 * One autotuning run of a matmul shape class (see autotune.ts): times every candidate variant
 * on a proxy of the class (trial-timing.ts; the proxy helpers also serve matmul-repack.ts),
 * checks each output against a float64 reference, and caches the fastest correct one. A product
 * that gathers an operand (implicit-GEMM convolution) is timed instead on a slice of itself,
 * whose candidates must agree with the default variant's output.
 */
import { proxyShape, type MatmulClassInput, type TuneKey } from './autotune';
import type { KernelContext } from './context';
import { dispatchVariant, hasSubgroups, type Operand } from './matmul-dispatch';
import { TRIAL_RUNS, tuneCandidates } from './trial-timing';
import { blockedSpecOf, defaultMatmulVariant, type MatmulVariant } from './variants';

/**
 * A slice of a real product to tune its class on: `record` runs it with a candidate variant into
 * scratch (exactly `outBytes` of it written), reading the product's own operands.
 */
export interface MatmulTrial {
  readonly outBytes: number;
  /** Multiply-adds of one run of the slice. */
  readonly macs: number;
  readonly record: (variant: MatmulVariant, out: GPUBuffer) => void;
}

/**
 * Multiply-adds a trial slice keeps (as many as a capped proxy): long enough to time steadily,
 * short enough that nine candidates, three runs each, stay near a second on a CPU emulation.
 */
export const TRIAL_MACS = 2 ** 27;

/** Operand strides of a proxy in the class's layout ('s': row-major with padded rows). */
export function proxyStrides(layout: string, rows: number, cols: number): [number, number, number] {
  if (layout === 'k' || layout === 'n') return [0, cols, 1];
  if (layout === 'm') return [0, 1, rows];
  return [0, cols + 1, 1];
}

/** Float64 reference of a few sampled outputs; returns whether `got` matches at every sample. */
export function matchesReference(
  got: Float32Array,
  a: Float32Array,
  b: Float32Array,
  sa: readonly number[],
  sb: readonly number[],
  m: number,
  n: number,
  k: number,
  /** The output is this many (identical) products summed. */
  times: number,
): boolean {
  for (let s = 0; s < 48; s++) {
    const i = (s * 7919) % m;
    const j = (s * 104729 + (s >> 1)) % n;
    let sum = 0;
    let magnitude = 0;
    for (let t = 0; t < k; t++) {
      const term = a[i * sa[1] + t * sa[2]] * b[t * sb[1] + j * sb[2]];
      sum += term;
      magnitude += Math.abs(term);
    }
    const value = got[i * n + j];
    if (!(Math.abs(value - times * sum) <= 1e-4 * times * magnitude + 1e-5)) return false;
  }
  return true;
}

/** Deterministic non-zero proxy data (the values only need to exercise every element). */
export function proxyData(size: number, seed: number): Float32Array {
  const data = new Float32Array(size);
  let state = seed >>> 0;
  for (let i = 0; i < size; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[i] = (state >>> 8) / 2 ** 24 - 0.5;
  }
  return data;
}

/** The candidates a class's tuning run times: only the blocked family where it alone can run. */
function classCandidates(
  ctx: KernelContext,
  input: MatmulClassInput,
  trial?: MatmulTrial,
): readonly MatmulVariant[] {
  const blockedOnly = trial !== undefined || input.summed || (input.blockedOnly ?? false);
  return blockedOnly ? ctx.candidates.filter((v) => blockedSpecOf(v)) : ctx.candidates;
}

/**
 * Multiply-adds a tuning run of the class does (every candidate, every run, on its proxy or
 * `trial`): what the class runs with its default before it is tuned (autotune.ts's `due`).
 */
export function tuningMacs(
  ctx: KernelContext,
  input: MatmulClassInput,
  trial?: MatmulTrial,
): number {
  const proxy = proxyShape(input);
  const each = trial ? trial.macs : proxy.batch * proxy.m * proxy.n * proxy.k;
  return classCandidates(ctx, input, trial).length * TRIAL_RUNS * each;
}

/**
 * Times every candidate on a proxy of the class and records the fastest correct one; the result
 * arrives asynchronously. Returns null (try again later) while another profiler is attached.
 */
export function tuneClass(
  ctx: KernelContext,
  input: MatmulClassInput,
  key: TuneKey<'mm'>,
  trial?: MatmulTrial,
): Promise<void> | null {
  const { queue } = ctx;
  if (queue.profiler) return null;
  if (trial) return tuneOnTrial(ctx, input, key, trial);
  const { batch, m, n, k } = proxyShape(input);
  const summed = input.summed ?? false;
  const sa = proxyStrides(input.aLayout, m, k);
  const sb = proxyStrides(input.bLayout, k, n);
  // Every batch reads the same operands (stride 0): the time is what matters, not the data.
  const aSize = (m - 1) * sa[1] + (k - 1) * sa[2] + 1;
  const bSize = (k - 1) * sb[1] + (n - 1) * sb[2] + 1;
  const hostA = proxyData(aSize, 1);
  const hostB = proxyData(bSize, 2);
  const aBuffer = ctx.pool.acquire(aSize * 4);
  const bBuffer = ctx.pool.acquire(bSize * 4);
  queue.write(aBuffer, hostA);
  queue.write(bBuffer, hostB);
  // Only the blocked family gathers operands and fuses epilogues such as the batch sum.
  const candidates = classCandidates(ctx, input);
  const shape = { batch, m, n, k };
  const a: Operand = { gpu: aBuffer, offset: 0, strides: sa };
  const b: Operand = { gpu: bBuffer, offset: 0, strides: sb };
  return tuneCandidates(ctx, key, candidates, {
    outBytes: (summed ? 1 : batch) * m * n * 4,
    record: (variant, out) =>
      dispatchVariant(ctx, variant, a, b, out, shape, { sumBatches: summed }),
    correct: (outputs, i) =>
      matchesReference(outputs[i], hostA, hostB, sa, sb, m, n, k, summed ? batch : 1),
    scratch: [aBuffer, bBuffer],
  });
}

/** Times the blocked family (the one that gathers) on `trial`; see tuneClass. */
function tuneOnTrial(
  ctx: KernelContext,
  input: MatmulClassInput,
  key: TuneKey<'mm'>,
  trial: MatmulTrial,
): Promise<void> | null {
  const candidates = classCandidates(ctx, input, trial);
  const reference = Math.max(0, candidates.indexOf(defaultMatmulVariant(hasSubgroups(ctx))));
  return tuneCandidates(ctx, key, candidates, {
    outBytes: trial.outBytes,
    record: trial.record,
    correct: (outputs, i) => agrees(outputs[i], outputs[reference]),
    // Its candidates read the product's own operands, which later ops may overwrite.
    whole: true,
  });
}

/** Whether two variants' outputs of one product agree within float32 rounding of its sums. */
export function agrees(got: Float32Array, want: Float32Array): boolean {
  let scale = 0;
  for (const v of want) scale = Math.max(scale, Math.abs(v));
  const tolerance = 1e-4 * scale + 1e-6;
  return want.every((v, i) => Math.abs(got[i] - v) <= tolerance);
}
