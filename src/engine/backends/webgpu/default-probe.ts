/**
 * The default matmul variant and repack choice of every shape class not tuned yet, measured once
 * per adapter by a small probe instead of fixed by a rule: at the first product big enough to
 * matter (under the 'amortized' policy, the user's path) one candidate per kernel family that the
 * adapter's features and limits allow is timed on a small product and checked against float64;
 * the fastest becomes the default (and the fastest of the register-blocked family the default of
 * classes only that family can run), then the winner is timed reading operands whose rows alias
 * (4 KiB apart) in place and through padded copies, and the faster becomes the repack default.
 * The results persist with the tuner's choices (autotune.ts's store: IndexedDB in the browser), so
 * later page loads skip the probe. Never decided by the adapter's name. The probe starts once the
 * user's work pauses after the triggering product (idle time) and compiles its candidates off the
 * op's path (PipelineCache's withoutBlocking), so no op records behind them (Dawn in Node still
 * builds them on this thread, between tasks). Per-class tuning runs (matmul-tune.ts, matmul-repack.ts) still replace
 * these defaults class by class.
 */
import { pickFastest, PROBE_KEYS, type TrialResult } from './autotune';
import type { KernelContext } from './context';
import { dispatchVariant, type Operand } from './matmul-dispatch';
import { recordProduct } from './matmul-repack';
import { PipelinePending } from './pipeline-cache';
import { matchesReference, proxyData } from './matmul-tune';
import { readOutputs, timeCandidates } from './trial-timing';
import { IDLE_MS } from './tune-slices';
import { blockedSpecOf, REPACKS, type MatmulVariant, type Repack } from './variants';

/**
 * A product this big starts the probe: the probe does about 2^28.5 multiply-adds (a third of a
 * 1024³ product), so it costs at most a few such products and every later untuned one gains.
 */
export const PROBE_TRIGGER_MACS = 2 ** 27;

/** What the candidates are chosen from: the device's features and limits, never its name. */
export interface ProbeLimits {
  readonly subgroups: boolean;
  readonly maxComputeInvocationsPerWorkgroup: number;
  readonly maxComputeWorkgroupStorageSize: number;
}

/** Workgroup memory of t8x8@16x16 at its shallowest depth (matmul-tiled.ts: 8 rows of K). */
const TILED_BYTES = (16 * 8 + 1) * 2 * 8 * 4;

/**
 * One representative per family the device can run: quads sharing A by swaps (cheap on CPU
 * emulations) and by broadcasts (what GPUs coalesce best) where subgroups exist, vec4 loads, plain
 * loads, and 128x128 shared-memory tiles where a workgroup may have 256 invocations and the
 * memory for them.
 */
export function probeCandidates(limits: ProbeLimits): MatmulVariant[] {
  const out: MatmulVariant[] = limits.subgroups ? ['x16x8@4x8', 'q16x8@4x8'] : [];
  out.push('v8x8@8x8', 's8x8@8x8');
  if (
    limits.maxComputeInvocationsPerWorkgroup >= 256 &&
    limits.maxComputeWorkgroupStorageSize >= TILED_BYTES
  ) {
    out.push('t8x8@16x16');
  }
  return out;
}

/** What one probe measured (for reports and tests). */
export interface ProbeRecord {
  readonly variants: TrialResult[];
  readonly repack: TrialResult<Repack>[];
  /** Wall time of the whole probe, compiles included, in milliseconds. */
  readonly ms: number;
}

const probeLogs = new WeakMap<KernelContext, ProbeRecord[]>();

/** The probes run on `ctx` (one at most, unless its choices were cleared). */
export function probeLog(ctx: KernelContext): readonly ProbeRecord[] {
  return probeLogs.get(ctx) ?? [];
}

/**
 * The probed default for an untuned class, or null while unknown; a product of `macs` at least
 * PROBE_TRIGGER_MACS starts the probe (result asynchronous, like a tuning run).
 */
export function probedVariant(
  ctx: KernelContext,
  blockedOnly: boolean,
  macs: number,
): MatmulVariant | null {
  const chosen = ctx.tuner.get(blockedOnly ? PROBE_KEYS.blocked : PROBE_KEYS.plain);
  if (chosen) return chosen;
  maybeProbe(ctx, macs);
  return null;
}

function maybeProbe(ctx: KernelContext, macs: number): void {
  if (!ctx.autotune || ctx.tuner.policy !== 'amortized' || macs < PROBE_TRIGGER_MACS) return;
  if (!ctx.tuner.needsTuning(PROBE_KEYS.plain)) return;
  // Started once the user's work pauses (idle time, as tuning slices use it), not beside it: on
  // a CPU emulation its compiles take the cores a loop's products run on (a 25-product loop's
  // first product paid ~0.6 s for it). A kernel that fails to compile ends the probe: the rule's
  // default stays, untried again.
  const job = quiet(ctx, IDLE_MS)
    .then(async () => {
      await runProbe(ctx);
    })
    .catch(() => ctx.tuner.abandon(PROBE_KEYS.plain));
  ctx.tuner.track(PROBE_KEYS.plain, job);
}

/** Resolves once no op has been recorded for `ms` after the device finished its work. */
async function quiet(ctx: KernelContext, ms: number): Promise<void> {
  for (;;) {
    const mark = ctx.queue.dispatches;
    await new Promise((resolve) => setTimeout(resolve, ms));
    if (ctx.queue.dispatches !== mark) continue;
    await ctx.device.queue.onSubmittedWorkDone();
    if (ctx.queue.dispatches === mark) return;
  }
}

/** Proxy product of the variant probe: 512² outputs (64 of the bigger blocks' workgroups). */
const VARIANT_PROXY = { batch: 1, m: 512, n: 512, k: 128 };
/** Proxy of the repack probe: 1024 rows of K, both operands' rows 4 KiB apart. */
const REPACK_PROXY = { batch: 1, m: 128, n: 256, k: 1024 };
const ALIASED_ROW = 1024;
/** Runs of each candidate (the fastest counts); the tuner's full runs take three. */
const PROBE_RUNS = 2;

/**
 * Records each of `count` candidates once with its kernels compiled off the op's path
 * (createComputePipelineAsync, PipelineCache.withoutBlocking), waiting for the compiles, until
 * every one records; that last recording is a warm-up run. On SwiftShader a compile takes 1–2.5 s,
 * which in the op would stall the user's first big product.
 */
async function compileOffPath(
  ctx: KernelContext,
  count: number,
  record: (i: number) => void,
): Promise<void> {
  const left = new Set(Array.from({ length: count }, (_, i) => i));
  while (left.size > 0) {
    const pending: Promise<void>[] = [];
    for (const i of [...left]) {
      try {
        ctx.pipelines.withoutBlocking(() => record(i));
        left.delete(i);
      } catch (error) {
        if (!(error instanceof PipelinePending)) throw error;
        pending.push(error.ready);
      }
    }
    await Promise.all(pending);
  }
}

/**
 * Compiles the candidates off the op's path, then times them and the repack choice, and records
 * both. Returns null (try again later) while another profiler is attached to the queue; the job
 * ends without a choice (tried again at a later product) if one is attached when timing starts.
 */
export function runProbe(ctx: KernelContext): Promise<void> | null {
  if (ctx.queue.profiler) return null;
  const limits: ProbeLimits = {
    subgroups: ctx.device.features.has('subgroups'),
    maxComputeInvocationsPerWorkgroup: ctx.device.limits.maxComputeInvocationsPerWorkgroup,
    maxComputeWorkgroupStorageSize: ctx.device.limits.maxComputeWorkgroupStorageSize,
  };
  const candidates = probeCandidates(limits);
  const start = performance.now();
  const { m, n, k } = VARIANT_PROXY;
  const product = proxyProduct(ctx, m, n, k, [0, k, 1], [0, n, 1], 5);
  const outs = candidates.map(() => ctx.pool.acquire(m * n * 4));
  const record = (i: number) =>
    dispatchVariant(ctx, candidates[i], product.a, product.b, outs[i], VARIANT_PROXY);
  return (async () => {
    let variants: TrialResult[];
    try {
      await compileOffPath(ctx, candidates.length, record);
      const timing = timeCandidates(ctx, candidates.length, record, { runs: PROBE_RUNS });
      if (!timing) return;
      const times = await timing;
      const outputs = await readOutputs(ctx, outs, m * n * 4);
      variants = candidates.map((variant, i) => ({
        variant,
        ns: times[i],
        correct: product.check(outputs[i]),
      }));
    } finally {
      for (const buffer of [...outs, product.a.gpu, product.b.gpu]) ctx.pool.recycle(buffer);
    }
    const plain = pickFastest(variants);
    const blocked = pickFastest(variants.filter((r) => blockedSpecOf(r.variant)));
    if (!plain || !blocked) {
      ctx.tuner.abandon(PROBE_KEYS.plain);
      return;
    }
    const repack = await probeRepack(ctx, plain);
    ctx.tuner.choose(PROBE_KEYS.plain, plain);
    ctx.tuner.choose(PROBE_KEYS.blocked, blocked);
    const best = pickFastest(repack);
    if (best) ctx.tuner.choose(PROBE_KEYS.repack, best);
    const log = probeLogs.get(ctx) ?? [];
    log.push({ variants, repack, ms: performance.now() - start });
    probeLogs.set(ctx, log);
  })();
}

/**
 * The winner on operands whose rows alias, in place and through padded copies, each output checked
 * against float64. Timed on the GPU, so without the copies: on this small proxy they would weigh
 * six times what they do in a 1024³ product (where padded won by 6–20% in Node) and hid the gain
 * (the wall clock chose in place, 200–255 against 268–368 ms); the class's own run
 * (matmul-repack.ts) later weighs them by wall clock on its real size.
 */
async function probeRepack(
  ctx: KernelContext,
  variant: MatmulVariant,
): Promise<TrialResult<Repack>[]> {
  const { m, n, k } = REPACK_PROXY;
  const product = proxyProduct(ctx, m, n, k, [0, ALIASED_ROW, 1], [0, ALIASED_ROW, 1], 7);
  const outs = REPACKS.map(() => ctx.pool.acquire(m * n * 4));
  const record = (i: number) =>
    recordProduct(ctx, REPACKS[i], variant, product.a, product.b, outs[i], REPACK_PROXY, false);
  try {
    await compileOffPath(ctx, REPACKS.length, record);
    const timing = timeCandidates(ctx, REPACKS.length, record, { runs: PROBE_RUNS });
    if (!timing) return [];
    const times = await timing;
    const outputs = await readOutputs(ctx, outs, m * n * 4);
    return REPACKS.map((repack, i) => ({
      variant: repack,
      ns: times[i],
      correct: product.check(outputs[i]),
    }));
  } finally {
    for (const buffer of [...outs, product.a.gpu, product.b.gpu]) ctx.pool.recycle(buffer);
  }
}

/** Proxy operands uploaded with the given strides, and a float64 check of an output. */
function proxyProduct(
  ctx: KernelContext,
  m: number,
  n: number,
  k: number,
  sa: [number, number, number],
  sb: [number, number, number],
  seed: number,
): { a: Operand; b: Operand; check: (got: Float32Array) => boolean } {
  const hostA = proxyData((m - 1) * sa[1] + (k - 1) * sa[2] + 1, seed);
  const hostB = proxyData((k - 1) * sb[1] + (n - 1) * sb[2] + 1, seed + 1);
  const a: Operand = { gpu: ctx.pool.acquire(hostA.byteLength), offset: 0, strides: sa };
  const b: Operand = { gpu: ctx.pool.acquire(hostB.byteLength), offset: 0, strides: sb };
  ctx.queue.write(a.gpu, hostA);
  ctx.queue.write(b.gpu, hostB);
  return {
    a,
    b,
    check: (got) => matchesReference(got, hostA, hostB, sa, sb, m, n, k, 1),
  };
}
