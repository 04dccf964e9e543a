/**
 * Matrix products on the GPU: binds the kernel variants (kernels/matmul.wgsl, the register-blocked
 * family of kernels/matmul-blocked.wgsl, shared-memory kernels/matmul-tiled.wgsl) and chooses one
 * per shape class with the autotuner (autotune.ts), which times the candidates on this adapter.
 */

import type { OutView, View } from '../../backend';
import registerSource from '../../../../kernels/matmul.wgsl?raw';
import tiledSource from '../../../../kernels/matmul-tiled.wgsl?raw';
import {
  matmulClassKey,
  MIN_TUNED_MACS,
  pickFastest,
  proxyShape,
  type MatmulClassInput,
  type TrialResult,
} from './autotune';
import type { KernelContext } from './context';
import { gpuOf, outputOf, WebGPUBuffer } from './gpu-buffer';
import { blockedGroups, blockedKernel, type Epilogue } from './matmul-blocked';
import { KernelProfiler } from './profiler';
import { reduce } from './reduce';
import { blockedSpecOf, defaultMatmulVariant, type MatmulVariant } from './variants';

export interface MatmulShape {
  readonly batch: number;
  readonly m: number;
  readonly n: number;
  readonly k: number;
}

/** A [B, M, K] or [B, K, N] operand as the kernels address it: buffer, offset, three strides. */
interface Operand {
  readonly gpu: GPUBuffer;
  readonly offset: number;
  readonly strides: readonly [number, number, number];
}

/** Strides of a [B, M, K] / [B, K, N] view with size-1 dimensions' strides zeroed (they never move). */
function strides3(view: View): [number, number, number] {
  const [s0, s1, s2] = view.strides;
  const [d0, d1, d2] = view.shape;
  return [d0 === 1 ? 0 : s0, d1 === 1 ? 0 : s1, d2 === 1 ? 0 : s2];
}

const aligned = (...values: number[]): boolean => values.every((v) => v % 4 === 0);

/** Most batches in one dispatch (one grid axis). */
const MAX_BATCH_PER_DISPATCH = 65535;

/** A pooled scratch buffer as a DeviceBuffer, so other kernel families can read it. */
function wrapGpu(buffer: GPUBuffer): WebGPUBuffer {
  return new WebGPUBuffer(buffer.size, buffer);
}

/** Whether the device was opened with subgroups (quad broadcasts). */
export function hasSubgroups(ctx: KernelContext): boolean {
  return ctx.device.features.has('subgroups');
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

/** Records one product with the given variant (all batches). */
function dispatchVariant(
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
  const fused = epilogue.bias || epilogue.relu || epilogue.nchw || epilogue.sumBatches;
  if (blocked || fused) {
    let spec = blocked ?? blockedSpecOf(defaultMatmulVariant(hasSubgroups(ctx)))!;
    // A quad variant asked for where subgroups are missing runs its plain twin.
    if (spec.quad && !hasSubgroups(ctx)) spec = { ...spec, quad: false };
    kernel = blockedKernel(ctx, spec, epilogue);
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
    const flags: string[] = [];
    if (sak === 1) flags.push('A_K_MAJOR');
    if (sbn === 1) flags.push('B_N_MAJOR');
    kernel = ctx.kernel('matmul-tiled', flags.join(','), 'wrr', tiledSource, () => ({ flags }));
    groups = [Math.ceil(n / 64), Math.ceil(m / 64)];
  }
  const buffers = [out, a.gpu, b.gpu];
  if (epilogue.bias && epilogue.biasBuffer) buffers.push(epilogue.biasBuffer);
  if (epilogue.sumBatches) {
    writeParams(ctx, shape, a, b, 0, epilogue, batch);
    ctx.run(kernel, buffers, [groups[0], groups[1], 1]);
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

function writeParams(
  ctx: KernelContext,
  { m, n, k }: MatmulShape,
  a: Operand,
  b: Operand,
  base: number,
  epilogue: { pixels?: number; biasOffset?: number },
  summed: number,
): void {
  const [sab, sam, sak] = a.strides;
  const [sbb, sbk, sbn] = b.strides;
  ctx.queue
    .params()
    .u32(0, m)
    .u32(1, n)
    .u32(2, k)
    .u32(3, base)
    .i32(4, a.offset)
    .i32(5, sab)
    .i32(6, sam)
    .i32(7, sak)
    .i32(8, b.offset)
    .i32(9, sbb)
    .i32(10, sbk)
    .i32(11, sbn)
    .u32(12, epilogue.pixels ?? 1)
    .u32(13, epilogue.biasOffset ?? 0)
    .u32(14, summed);
}

/**
 * Block shapes for thin products, chosen by shape (not by adapter): a few output columns (a
 * linear layer with one output, X @ w) put every invocation on rows; a few rows, on columns.
 */
function thinVariant(m: number, n: number): MatmulVariant | null {
  // A tiny output (a split-K piece of a weight gradient): one invocation, exactly its size.
  if (m <= 4 && n <= 4) return `s${m}x${n}@1x1`;
  if (n <= 4 && m >= 64) return `s4x${n}@1x64`;
  if (m <= 4 && n >= 64) return `s${m}x4@64x1`;
  return null;
}

/** The variant for a product: forced, tuned for its class, or the default while tuning runs. */
export function chooseMatmulVariant(ctx: KernelContext, input: MatmulClassInput): MatmulVariant {
  const forced = ctx.overrides.matmul;
  if (forced) return forced;
  const thin = thinVariant(input.m, input.n);
  if (thin) return thin;
  const fallback = defaultMatmulVariant(hasSubgroups(ctx));
  if (input.m * input.n * input.k < MIN_TUNED_MACS) return fallback;
  const key = matmulClassKey(input);
  const chosen = ctx.tuner.get(key);
  if (chosen) return chosen;
  if (ctx.tuner.needsTuning(key) && ctx.autotune) {
    const job = tuneClass(ctx, input, key);
    if (job) ctx.tuner.track(key, job);
  }
  return fallback;
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
  const variant = chooseMatmulVariant(ctx, { batch, m, n, k, summed, ...layouts(sa, sb) });
  const bias = epilogue.bias ?? null;
  if (bias && bias.shape.length === 1 && bias.shape[0] > 1 && bias.strides[0] !== 1) {
    throw new Error('gemm: the bias must be contiguous');
  }
  dispatchVariant(
    ctx,
    variant,
    { gpu: gpuOf(a), offset: a.offset, strides: sa },
    { gpu: gpuOf(b), offset: b.offset, strides: sb },
    outputOf(out),
    { batch, m, n, k },
    {
      bias: bias !== null,
      relu: epilogue.relu,
      nchw: epilogue.nchw,
      pixels: epilogue.pixels,
      biasBuffer: bias ? gpuOf(bias) : undefined,
      biasOffset: bias?.offset ?? 0,
      sumBatches: epilogue.sumBatches,
    },
  );
}

/** K per split-K piece: long enough to amortize a piece, short enough to spread the work. */
const SPLIT_K_PIECE = 1024;

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
  const pieces = Math.floor(k / SPLIT_K_PIECE);
  const covered = pieces * SPLIT_K_PIECE;
  const rest = k - covered;
  const slots = pieces + (rest > 0 ? 1 : 0);
  const partial = ctx.pool.acquire(slots * outputs * 4);
  const shape = { batch: pieces, m, n, k: SPLIT_K_PIECE };
  const variant = chooseMatmulVariant(ctx, { ...shape, ...layouts(sa, sb) });
  dispatchVariant(
    ctx,
    variant,
    { gpu: gpuOf(a), offset: a.offset, strides: [SPLIT_K_PIECE * sa[2], sa[1], sa[2]] },
    { gpu: gpuOf(b), offset: b.offset, strides: [SPLIT_K_PIECE * sb[1], sb[1], sb[2]] },
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

/** Operand strides of a proxy in the class's layout ('s': row-major with padded rows). */
function proxyStrides(layout: string, rows: number, cols: number): [number, number, number] {
  if (layout === 'k' || layout === 'n') return [0, cols, 1];
  if (layout === 'm') return [0, 1, rows];
  return [0, cols + 1, 1];
}

/** Float64 reference of a few sampled outputs; returns whether `got` matches at every sample. */
function matchesReference(
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
function proxyData(size: number, seed: number): Float32Array {
  const data = new Float32Array(size);
  let state = seed >>> 0;
  for (let i = 0; i < size; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[i] = (state >>> 8) / 2 ** 24 - 0.5;
  }
  return data;
}

/**
 * Times every candidate on a proxy of the class and records the fastest correct one. The
 * candidates' dispatches are recorded now, each in a timestamped pass of its own; the result
 * arrives asynchronously. Returns null (try again later) while another profiler is attached.
 */
function tuneClass(ctx: KernelContext, input: MatmulClassInput, key: string): Promise<void> | null {
  const { device, queue } = ctx;
  const timestamps = KernelProfiler.supported(device);
  if (queue.profiler) return null;
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
  // Only the blocked family fuses epilogues such as the batch sum.
  const candidates = summed ? ctx.candidates.filter((v) => blockedSpecOf(v)) : ctx.candidates;
  const outBytes = (summed ? 1 : batch) * m * n * 4;
  const outs = candidates.map(() => ctx.pool.acquire(outBytes));
  const readbacks = candidates.map(() =>
    device.createBuffer({
      size: outBytes,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    }),
  );
  const shape = { batch, m, n, k };
  const a: Operand = { gpu: aBuffer, offset: 0, strides: sa };
  const b: Operand = { gpu: bBuffer, offset: 0, strides: sb };
  const runs = 2;
  const release = () => {
    for (const buffer of [aBuffer, bBuffer, ...outs]) ctx.pool.recycle(buffer);
    for (const buffer of readbacks) buffer.destroy();
  };
  const record = (i: number) => {
    dispatchVariant(ctx, candidates[i], a, b, outs[i], shape, { sumBatches: summed });
  };
  const finish = async (times: number[]): Promise<void> => {
    const results: TrialResult[] = [];
    for (let i = 0; i < candidates.length; i++) {
      await readbacks[i].mapAsync(GPUMapMode.READ);
      const got = new Float32Array(readbacks[i].getMappedRange().slice(0));
      readbacks[i].unmap();
      results.push({
        variant: candidates[i],
        ns: times[i],
        correct: matchesReference(got, hostA, hostB, sa, sb, m, n, k, summed ? batch : 1),
      });
    }
    ctx.tuneLog.push({ key, results });
    const best = pickFastest(results);
    if (best) ctx.tuner.choose(key, best);
  };
  if (timestamps) {
    const profiler = new KernelProfiler(device);
    queue.flush();
    queue.profiler = profiler;
    try {
      for (let i = 0; i < candidates.length; i++) for (let r = 0; r < runs; r++) record(i);
    } finally {
      queue.flush();
      queue.profiler = null;
    }
    candidates.forEach((_, i) => queue.copy(outs[i], 0, readbacks[i], 0, outBytes));
    queue.flush();
    return (async () => {
      try {
        await queue.settled();
        const timings = await profiler.collect();
        const times = candidates.map((_, i) => {
          const mine = timings.slice(i * runs, (i + 1) * runs).map((t) => t.ns);
          return mine.length === runs ? Math.min(...mine) : Infinity;
        });
        await finish(times);
      } finally {
        release();
      }
    })();
  }
  // No timestamps: wall-clock each candidate on its own submit (noisier, still a measurement).
  return (async () => {
    try {
      const times: number[] = [];
      for (let i = 0; i < candidates.length; i++) {
        let best = Infinity;
        for (let r = 0; r < runs; r++) {
          queue.flush();
          await device.queue.onSubmittedWorkDone();
          const t0 = performance.now();
          record(i);
          queue.flush();
          await device.queue.onSubmittedWorkDone();
          best = Math.min(best, (performance.now() - t0) * 1e6);
        }
        times.push(best);
        queue.copy(outs[i], 0, readbacks[i], 0, outBytes);
      }
      queue.flush();
      await queue.settled();
      await finish(times);
    } finally {
      release();
    }
  })();
}
