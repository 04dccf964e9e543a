/**
 * The contract every backend (CPU, WebGPU) fulfils, as three tables: memory (BackendMemory), the
 * kernels (Kernels, all required) and named optional extras (BackendCapabilities).
 *
 * Ops (shape rule, forward, backward) are defined once in `ops/` and call only these kernels, so a
 * backend never knows about autograd, broadcasting rules or dtypes promotion. Kernels read strided
 * views (so transposes, broadcasts and slices cost nothing until a kernel reads them) and write a
 * contiguous output they are handed. GPU kernels only enqueue work; `read` is the one place that
 * waits for a device.
 */
import type { BinaryOp, UnaryOp } from './elementwise-table';

export type DType = 'float32' | 'int32';
export type TypedArray = Float32Array | Int32Array;

/** A backend's handle to one block of device memory. Backends keep their own fields behind it. */
export interface DeviceBuffer {
  readonly bytes: number;
}

/**
 * The host-held contents of a spilled buffer (see memory.ts, layer 4). Backends keep their own
 * fields behind it; only the backend that made a block may restore or discard it.
 */
export interface HostBlock {
  readonly bytes: number;
}

/** How a kernel sees a tensor: a buffer plus a strided layout, all counted in elements. */
export interface View {
  readonly buffer: DeviceBuffer;
  readonly dtype: DType;
  readonly shape: readonly number[];
  /** Element strides; 0 for a broadcast dimension. */
  readonly strides: readonly number[];
  /** Element offset of index [0, 0, …] in the buffer. */
  readonly offset: number;
}

/** A contiguous (row-major, offset 0) output the kernel fills. */
export type OutView = View;

/** The element-wise ops, named by their rows in the element-wise table. Comparisons write 1 or 0 in
 * the output's dtype; unary 'copy' also casts. */
export type { BinaryOp, UnaryOp };

export type ReduceOp = 'sum' | 'max' | 'min' | 'argmax' | 'argmin';
/** The running combination a `scan` kernel computes (cumsum, cumprod). */
export type ScanOp = 'sum' | 'prod';

/** Where a fused step reads an operand: an input view, an earlier step's value, or a scalar. */
export type FusedOperand =
  | { readonly from: 'input'; readonly index: number }
  | { readonly from: 'step'; readonly index: number }
  | { readonly from: 'scalar'; readonly index: number };

/**
 * One op of a fused chain, with the semantics of the unfused kernel of the same name: `unary`
 * (copy casts), or `binary` whose b may be a scalar (binaryScalar, either side). A `copy` of a
 * scalar operand is a fill, with fill's cast (an int32 output takes the value's `| 0`).
 */
export type FusedStep =
  | {
      readonly kind: 'unary';
      readonly op: UnaryOp;
      readonly a: FusedOperand;
      readonly dtype: DType;
    }
  | {
      readonly kind: 'binary';
      readonly op: BinaryOp;
      readonly a: FusedOperand;
      readonly b: FusedOperand;
      readonly dtype: DType;
    };

/**
 * A chain of element-wise ops over one output shape (backends/fusion/): the structure only, so a
 * compiled form can be cached across shapes and scalar values. Element i of every step, input and
 * output is the element at flat index i of the shape.
 */
export interface FusedProgram {
  /** The dtype of each input view. */
  readonly inputs: readonly DType[];
  readonly steps: readonly FusedStep[];
  /** For each output view, the step whose values it receives. */
  readonly outputs: readonly number[];
}

/**
 * A reduction in a fused chain: `op` over the values of step `step` taken as `[rows, inner]` in
 * the chain's flat order (consecutive runs of `inner` elements), exactly as `reduce` over a
 * contiguous view of that step's output would give. `out` receives `rows` consecutive values
 * from its offset (which may be an element of a larger output: one column of a product).
 */
export interface FusedReduction {
  readonly op: 'sum' | 'max' | 'min';
  readonly step: number;
  /** The chain's shape (its element-wise outputs, if any, have it too). */
  readonly shape: readonly number[];
  readonly inner: number;
  readonly out: View;
}

/** How many reductions one fused chain may compute (WebGPU folds them as one vec4 per element). */
export const MAX_FUSED_REDUCTIONS = 4;

export interface Conv2dGeometry {
  batch: number;
  inChannels: number;
  inHeight: number;
  inWidth: number;
  kernelHeight: number;
  kernelWidth: number;
  strideH: number;
  strideW: number;
  padH: number;
  padW: number;
  dilationH: number;
  dilationW: number;
  outHeight: number;
  outWidth: number;
}

/**
 * Pooling windows. For ordinary pooling, window i along an axis covers
 * [i*stride - pad, i*stride - pad + kernel). For adaptive pooling (`adaptive: true`) it covers
 * [floor(i*in/out), ceil((i+1)*in/out)) and kernel/stride/pad are ignored.
 */
export interface Pool2dGeometry {
  batch: number;
  channels: number;
  inHeight: number;
  inWidth: number;
  outHeight: number;
  outWidth: number;
  kernelHeight: number;
  kernelWidth: number;
  strideH: number;
  strideW: number;
  padH: number;
  padW: number;
  adaptive: boolean;
}

/**
 * When a backend times its kernel variants for a shape class: 'amortized', once the class has run
 * with its default for as long as the timing would take, then a slice at a time between user ops
 * within a share of their time and a budget (what a notebook wants: no op stalls); 'first-use',
 * all at the class's first op (what a benchmark of the tuned steady state wants).
 */
export type TuningPolicy = 'amortized' | 'first-use';

export type RandomKind = 'uniform' | 'normal';

/**
 * Counter-based random numbers: element i of the output is a pure function of (seed, counter + i),
 * the same on every backend, so a seed reproduces a tensor on any device.
 */
export interface RandomParams {
  kind: RandomKind;
  seed: number;
  counter: number;
  /** uniform: [a, b); normal: mean a, standard deviation b. */
  a: number;
  b: number;
}

/** The fused parts of a `gemm`: what happens to each product before it is stored, and where. */
export interface GemmOptions {
  /** Added per output column: bias[col] (a [N] view). */
  readonly bias?: View | null;
  readonly relu?: boolean;
  /**
   * Write row r = n * pixels + p of the [M, N] product to out[n, col, p] (a convolution's NCHW
   * output, out: [M / pixels, N, pixels]) instead of row-major.
   */
  readonly nchwPixels?: number;
  /** Sum the B products a[b] @ b[b] into one [1, M, N] output (a weight gradient over images). */
  readonly sumBatches?: boolean;
}

/** One Adam step's scalars (host arithmetic on the step count is already done). */
/** One parameter of an Adam step: param, m and v updated in place from grad. */
export interface AdamSlot {
  readonly param: View;
  readonly grad: View;
  readonly m: View;
  readonly v: View;
}

export interface AdamStep {
  readonly beta1: number;
  readonly beta2: number;
  /** The update is p -= stepSize * m / (sqrt(v) * vScale + eps). */
  readonly stepSize: number;
  readonly vScale: number;
  readonly eps: number;
  /** L2 penalty added to the gradient (PyTorch's weight_decay); 0 for none. */
  readonly weightDecay: number;
  /** Follow +gradient (maximize). */
  readonly maximize: boolean;
}

/**
 * Memory: blocks of device memory and the copies between them and the host. Accounting and limits
 * live in the Device that owns the backend, not here.
 */
export interface BackendMemory {
  allocate(bytes: number): DeviceBuffer;
  release(buffer: DeviceBuffer): void;
  /** Writes host data at element 0 of a buffer. */
  write(buffer: DeviceBuffer, data: TypedArray): void;
  /**
   * Fills a buffer from host data that is not ready yet (a read from another device). Work enqueued
   * on this backend after the call must observe the data, as if `write` had run at call time.
   */
  writeAsync(buffer: DeviceBuffer, data: Promise<TypedArray>): void;
  /** Reads a contiguous range back to the host; the only call that waits for the device. */
  read(buffer: DeviceBuffer, dtype: DType, offset: number, length: number): Promise<TypedArray>;
  /** Resolves when all queued work has finished. */
  synchronize(): Promise<void>;
  /** Gives pooled, unused memory back to the device. */
  emptyCache(): void;
}

/**
 * Every kernel the ops use, fused ones included: all required, so an op has one path and a
 * backend without a fast path for one supplies its own composition (the CPU's convolution is
 * im2col + GEMM inside the CPU backend). Inputs are strided views already broadcast to the
 * output's shape where that applies. Every kernel returns nothing, which is what lets wrappers
 * (backends/kernel-table.ts) forward the whole table generically.
 */
export interface Kernels {
  fill(out: OutView, value: number): void;
  /**
   * Copies x into `out`, a strided view (any strides > 0, any offset) into an existing buffer, with
   * x's shape; out's elements do not overlap. Casts like unary 'copy'. Used by cat/stack, the
   * gradient of slicing and in-place updates of views. Other elements of the buffer are untouched.
   */
  assign(x: View, out: View): void;
  random(out: OutView, params: RandomParams): void;
  unary(op: UnaryOp, x: View, out: OutView): void;
  binary(op: BinaryOp, a: View, b: View, out: OutView): void;
  /** `a op scalar`, or `scalar op a` when `scalarFirst`. */
  binaryScalar(op: BinaryOp, a: View, scalar: number, scalarFirst: boolean, out: OutView): void;
  /**
   * Runs a chain of unary/binary/scalar ops in one pass (backends/fusion/): inputs are strided
   * views already broadcast to the outputs' shape, outputs are contiguous (offset 0) and receive
   * the values of the steps `program.outputs` names, exactly as the unfused kernels would write
   * them (within float32 rounding). `scalars[k]` is the value of scalar operand k.
   */
  fusedElementwise(
    program: FusedProgram,
    inputs: readonly View[],
    scalars: readonly number[],
    outputs: readonly OutView[],
  ): void;
  /**
   * `fusedElementwise` whose kernel also reduces steps' values (`reductions`, at least one, at most
   * MAX_FUSED_REDUCTIONS, all with the same `inner`; several only when all are sums): the chain's
   * outputs (there may be none) are written and the reductions computed in the same pass over the
   * inputs, as one dispatch (two when a long reduction needs a pass over its partial results).
   */
  fusedReduce(
    program: FusedProgram,
    inputs: readonly View[],
    scalars: readonly number[],
    outputs: readonly OutView[],
    reductions: readonly FusedReduction[],
  ): void;
  /**
   * Reduces the last `reducedDims` dimensions of x. out.shape is x.shape without them.
   * argmax/argmin write int32 flat indices into the reduced block (first occurrence wins).
   */
  reduce(op: ReduceOp, x: View, reducedDims: number, out: OutView): void;
  /**
   * out[b] = a[b] @ b[b] with a: [B, M, K], b: [B, K, N], out: [B, M, N]. a and b may be any
   * strided views (transposed, batch-broadcast with stride 0); kernels take fast paths when the
   * inner dimensions are contiguous.
   */
  matmul(a: View, b: View, out: OutView): void;
  /**
   * matmul with a fused epilogue (GemmOptions): a bias per column, relu, an NCHW output, or a sum
   * over the batch without a batch intermediate. Shapes as matmul, except out is [1, M, N] with
   * sumBatches and [M / pixels, N, pixels] with nchwPixels.
   */
  gemm(a: View, b: View, out: OutView, options: GemmOptions): void;
  /**
   * One Adam step of one or more parameters sharing its hyperparameters (a multi-tensor step: the
   * WebGPU backend updates up to four in one dispatch). Each slot's param, m and v (contiguous,
   * offset 0, same shape as its contiguous grad; no buffer in two slots) are updated in place:
   * m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g²; p -= stepSize * m / (sqrt(v) * vScale + eps).
   */
  adam(slots: readonly AdamSlot[], step: AdamStep): void;
  /**
   * Softmax cross-entropy of logits [R, C] against int32 labels [R]: losses [R] (contiguous) =
   * logsumexp(row) - row[label]; with `grad` ([R, C], contiguous) also the loss's gradient
   * softmax(row) - onehot(label), in the same pass.
   */
  softmaxCrossEntropy(logits: View, labels: View, losses: OutView, grad: OutView | null): void;
  /** Row-wise over the last dimension of a 2-D view [rows, cols]. */
  softmax(x: View, out: OutView, log: boolean): void;
  /** out[r] = x[r, index[r]] for x: [R, C], index int32 [R]. */
  gatherColumns(x: View, index: View, out: OutView): void;
  /** out[r, c] = c == index[r] ? values[r] : 0 for out: [R, C]. */
  scatterColumns(values: View, index: View, out: OutView): void;
  /** out[i, :] = table[index[i], :] for table: [V, D], index int32 [N], out: [N, D]. */
  indexSelect(table: View, index: View, out: OutView): void;
  /** out (zero-filled by the kernel) [V, D] += values[i, :] at row index[i], values: [N, D]. */
  indexAdd(values: View, index: View, out: OutView): void;
  /**
   * out [N, O, oH, oW] = x [N, C, H, W] (any strides) ⊛ weight [O, C, kH, kW] (dense) + bias [O],
   * zeros in the padding. WebGPU reads x's windows in place (implicit GEMM); the CPU unfolds them.
   */
  conv2d(x: View, weight: View, bias: View | null, geometry: Conv2dGeometry, out: OutView): void;
  /**
   * The weight gradient of conv2d: out [O, C * kH * kW] (dense) = Σ over images of grad[n]
   * [O, oH * oW] (grad dense) times x[n]'s unfolded columns.
   */
  conv2dWeightGrad(x: View, grad: View, geometry: Conv2dGeometry, out: OutView): void;
  /** x: [N, C, H, W] → columns [N * outH * outW, C * kH * kW]. */
  im2col(x: View, geometry: Conv2dGeometry, out: OutView): void;
  /** Inverse scatter of im2col, summed (gather form, no atomics): columns → [N, C, H, W]. */
  col2im(columns: View, geometry: Conv2dGeometry, out: OutView): void;
  /** Max pooling of [N, C, H, W]; indices (int32, same shape as out) hold the flat h*W+w of each max. */
  maxPool2d(x: View, geometry: Pool2dGeometry, out: OutView, indices: OutView): void;
  /** Routes gradOut back to the argmax positions, summing overlaps: → [N, C, H, W]. */
  maxPool2dBackward(gradOut: View, indices: View, geometry: Pool2dGeometry, out: OutView): void;

  // Indexing, scans and sorts along the last dim of a 2-D view (ops/index-ops.ts, scan.ts,
  // sort.ts move any dim last first).
  /** out[r, k] = x[r, index[r, k]] for x: [R, C], index int32 [R, K], out: [R, K]. */
  gatherAlong(x: View, index: View, out: OutView): void;
  /** out [R, C] (zero-filled by the kernel) with values[r, k] added at column index[r, k]. */
  scatterAddAlong(values: View, index: View, out: OutView): void;
  /** Inclusive running sums or products along each row of x [R, C] (from the end when `reverse`). */
  scan(op: ScanOp, x: View, reverse: boolean, out: OutView): void;
  /**
   * Each row of x [R, C] sorted into values [R, C] and int32 column indices [R, C] (contiguous),
   * ascending or descending; ties keep their order (stable), NaN sorts after every number (before,
   * descending).
   */
  sortRows(x: View, descending: boolean, values: OutView, indices: OutView): void;

  // Normalisation (ops/norm.ts): LayerNorm, BatchNorm, GroupNorm and InstanceNorm as one view.
  /**
   * Normalises x, a contiguous [A, C, B] view, per channel c over its A·B values: mean [C], the
   * biased variance [C], and y [A, C, B] = (x - mean[c]) / sqrt(variance[c] + eps).
   */
  normalizeSlices(x: View, y: OutView, mean: OutView, variance: OutView, eps: number): void;
  /**
   * normalizeSlices' input gradient from g and y (contiguous [A, C, B]) and variance [C]:
   * dx = (g - mean(g) - y·mean(g·y)) / sqrt(variance[c] + eps), means over each c's A·B values.
   */
  normalizeSlicesBackward(g: View, y: View, variance: View, dx: OutView, eps: number): void;
  // Area D: recurrent layers.
  /**
   * One LSTM step (gate blocks i, f, g, o; views contiguous from their offsets, but c's rows may be
   * apart): from pre-activation gates [B, 4H] and the cell state c [B, H], state [B, 2H] =
   * [h' | c'] with c' = σ(f)·c + σ(i)·tanh(g), h' = σ(o)·tanh(c'), and the activated gates
   * act [B, 4H] = [σ(i) | σ(f) | tanh(g) | σ(o)] for the backward.
   */
  lstmCell(gates: View, c: View, state: OutView, act: OutView): void;
  /** lstmCell's gradient from its act, c, state and gState [B, 2H]: gGates [B, 4H] and gC [B, H]. */
  lstmCellBackward(
    act: View,
    c: View,
    state: View,
    gState: View,
    gGates: OutView,
    gC: OutView,
  ): void;
  /**
   * One GRU step (gate blocks r, z, n; views contiguous from their offsets): from the input's
   * projection x [B, 3H] (with b_ih), the hidden state's hp [B, 3H] (with b_hh) and h [B, H],
   * out [B, H] = h' = n + z·(h - n), r = σ(xr + hr), z = σ(xz + hz), n = tanh(xn + r·hn), and
   * act [B, 4H] = [r | z | n | hn] for the backward.
   */
  gruCell(x: View, hp: View, h: View, out: OutView, act: OutView): void;
  /** gruCell's gradient from its act, h and gOut [B, H]: gX, gHp [B, 3H] and gH [B, H]. */
  gruCellBackward(act: View, h: View, gOut: View, gX: OutView, gHp: OutView, gH: OutView): void;
  // Attention weights (ops/scale-mask-softmax.ts).
  /**
   * out = softmax(scale·scores + m) along the last dim, for scores and out [A, B, L, C] contiguous
   * from their offsets. m is read from `mask` [A, B, L, C] through its strides (0 where
   * broadcast): float32 is added, int32 (bool) adds -1e30 where 0; `causal` adds -1e30 where
   * column > l. A fully masked row comes out uniform (as the additive composition's did).
   */
  scaleMaskSoftmax(
    scores: View,
    mask: View | null,
    out: OutView,
    scale: number,
    causal: boolean,
  ): void;
  /** Its gradient: out = scale · y ⊙ (g − Σ(g⊙y)) per row of y, g and out [R, C] (contiguous). */
  scaleMaskSoftmaxBackward(y: View, g: View, out: OutView, scale: number): void;
}

/**
 * Spilling (memory.ts, layer 4). `spill` takes ownership of the buffers and frees their device
 * memory at once, keeping their contents, as they stand after all work enqueued before the call,
 * in host memory; it returns one block per buffer, or null (owning nothing) when it cannot spill
 * now. `restore` consumes a block and returns a device buffer holding its contents, seen by all
 * work enqueued after the call even if the host copy is still on its way. `discard` forgets a
 * block nobody will restore. `parkingBytes` is how much idle memory step sweeps may leave parked
 * on the device (parking.ts) when no memory limit is set, before the oldest is spilled.
 */
export interface Spilling {
  spill(buffers: readonly DeviceBuffer[]): HostBlock[] | null;
  restore(block: HostBlock): DeviceBuffer;
  discard(block: HostBlock): void;
  parkingBytes?(): number;
}

/** Total GPU time and count of one kernel variant over a profiled stretch. */
export interface KernelTime {
  label: string;
  ms: number;
  count: number;
}

/** Timing every dispatch (timestamp queries). */
export interface Profiling {
  /** Starts timing; the returned function stops and resolves to totals per kernel, largest first. */
  profileDispatches(): () => Promise<KernelTime[]>;
}

/** Why a device was lost, as the driver says. */
export interface LossInfo {
  reason: string;
  message: string;
}

/** A backend whose device can be lost (and destroyed on purpose). */
export interface LossState {
  /** Resolves when the device is lost; never, if it never is. */
  readonly lost: Promise<LossInfo>;
  destroy(): void;
}

/**
 * What a backend may offer beyond memory and kernels, each asked for by name
 * (`backend.capability('profiling')`) instead of probing concrete classes.
 */
export interface BackendCapabilities {
  /** Moving device memory to the host and back; without it step sweeps leave tensors in place. */
  spilling: Spilling;
  /** A copy of a contiguous range now, or null while queued work may still change it. */
  syncRead: {
    readSync(buffer: DeviceBuffer, dtype: DType, offset: number, length: number): TypedArray | null;
  };
  profiling: Profiling;
  /** Bytes of freed buffers kept for reuse. */
  poolStats: { poolStats(): { freeBytes: number } };
  /** Background kernel tuning (matmul variants, row modes). */
  tuning: {
    tuned(): Promise<void>;
    /** When a shape class starts its tuning run (see TuningPolicy). */
    setTuningPolicy(policy: TuningPolicy): void;
  };
  loss: LossState;
  /**
   * Kernels dispatched so far (WebGPU: compute dispatches; CPU: kernel calls), so benchmarks and
   * tests can count what a step costs.
   */
  dispatchCount: { dispatches(): number };
  /**
   * Present where the convolution op should compute a stride-1 input gradient as a convolution
   * of the output gradient with the flipped weight (ops/conv-gemm.ts): WebGPU, whose convolution
   * reads the windows in place. Elsewhere it is a product into columns folded back by col2im: the
   * CPU's convolution would first unfold the output gradient into columns as wide as its channels
   * times the kernel (bench/NOTES.md item 20: the CPU CNN step took ~420 ms that way, ~250 without).
   */
  inputGradAsConvolution: true;
  /** How long a fused element-wise chain may grow here (backends/fusion/chain.ts). */
  fusionLimits: {
    readonly maxBuffers: number;
    readonly maxInputs: number;
    readonly maxScalars: number;
    readonly maxSteps: number;
    /**
     * Whether matrix products join chains as element-wise steps and sums (fusion/products.ts):
     * yes where a kernel launch costs more than the chain's extra work (GPUs); the CPU's own
     * skinny products (wasm loops) are faster than the chain's steps.
     */
    readonly products: boolean;
  };
}

export type CapabilityName = keyof BackendCapabilities;

/** The contract every backend (CPU, WebGPU) and every wrapper of one fulfils. */
export interface Backend extends BackendMemory, Kernels {
  readonly kind: 'cpu' | 'webgpu';
  /** The named extra, or null when this backend (now) has none. */
  capability<K extends CapabilityName>(name: K): BackendCapabilities[K] | null;
}
