/**
 * The parameter layout of every WGSL kernel family (params.ts): the one place that says which
 * word of a dispatch's parameter block holds what. Each family's TypeScript writes these names and
 * its WGSL reads the `P_<name>` slot constants generated from them.
 */
import { paramLayout } from './params';
import { MAX_RANK } from './uniforms';

/** kernels/fill.wgsl. `bits` is the f32 or i32 value's bit pattern. */
export const FILL = paramLayout('fill', { n: 'u32', bits: 'u32', offset: 'u32' });

/**
 * kernels/elementwise.wgsl: the merged output shape and each operand's strides over it. `scalar`
 * holds a scalar operand's bits in the compute type (i32 or f32).
 */
export const ELEMENTWISE = paramLayout('elementwise', {
  n: 'u32',
  shape: ['u32', MAX_RANK],
  aStrides: ['i32', MAX_RANK],
  aOffset: 'i32',
  bStrides: ['i32', MAX_RANK],
  bOffset: 'i32',
  scalar: 'u32',
  outStrides: ['i32', MAX_RANK],
  outOffset: 'i32',
});

/** Inputs and scalars a fused element-wise chain may have (backends/fusion/chain.ts). */
export const FUSED_MAX_INPUTS = 6;
export const FUSED_MAX_SCALARS = 8;

/**
 * kernels/fused-elementwise.wgsl: the merged shape, input k's strides at
 * `strides[k * MAX_RANK ..]` and its offset at `offsets[k]`, and the chain's scalars (bits in
 * their step's compute type).
 */
const FUSED_FIELDS = {
  n: 'u32',
  shape: ['u32', MAX_RANK],
  strides: ['i32', MAX_RANK * FUSED_MAX_INPUTS],
  offsets: ['i32', FUSED_MAX_INPUTS],
  scalars: ['u32', FUSED_MAX_SCALARS],
} as const;

export const FUSED = paramLayout('fused-elementwise', FUSED_FIELDS);

/**
 * kernels/reduce.wgsl's CHAIN form: the fused chain's fields, then the reduction's rows of
 * `inner` consecutive elements cut into `chunks` tasks of `chunkLen` (as REDUCE).
 */
export const FUSED_REDUCE = paramLayout('fused-reduce', {
  ...FUSED_FIELDS,
  rows: 'u32',
  inner: 'u32',
  chunkLen: 'u32',
  chunks: 'u32',
});

/** Parameters one Adam dispatch updates at most. */
export const ADAM_MAX_SLOTS = 4;

/** kernels/adam.wgsl: each slot's element count, then the step. `maximize` is 0 or 1. */
export const ADAM = paramLayout('adam', {
  counts: ['u32', ADAM_MAX_SLOTS],
  beta1: 'f32',
  beta2: 'f32',
  stepSize: 'f32',
  vScale: 'f32',
  eps: 'f32',
  weightDecay: 'f32',
  maximize: 'u32',
});

/** kernels/random.wgsl: 64-bit seed and counter as two words each. */
export const RANDOM = paramLayout('random', {
  n: 'u32',
  seedLo: 'u32',
  seedHi: 'u32',
  counterLo: 'u32',
  counterHi: 'u32',
  a: 'f32',
  b: 'f32',
});

/** kernels/gather-scatter.wgsl: x (gather) or values (scatter, one stride) and the index. */
export const GATHER_SCATTER = paramLayout('gather-scatter', {
  rows: 'u32',
  cols: 'u32',
  xOffset: 'i32',
  xRowStride: 'i32',
  xColStride: 'i32',
  indexOffset: 'i32',
  indexStride: 'i32',
});

/** kernels/index-select.wgsl and index-add.wgsl: [N, D] rows of a [V, D] table. */
export const INDEX_ROWS = paramLayout('index-rows', {
  n: 'u32',
  width: 'u32',
  offset: 'i32',
  rowStride: 'i32',
  colStride: 'i32',
  indexOffset: 'i32',
  indexStride: 'i32',
  tableRows: 'u32',
});

const ROWS = {
  rows: 'u32',
  cols: 'u32',
  offset: 'i32',
  rowStride: 'i32',
  colStride: 'i32',
} as const;

/** kernels/softmax.wgsl: rows of a strided 2-D view. */
export const SOFTMAX = paramLayout('softmax', ROWS);

/** kernels/softmax-cross-entropy.wgsl: logits rows and their int32 labels. */
export const SOFTMAX_CROSS_ENTROPY = paramLayout('softmax-cross-entropy', {
  ...ROWS,
  labelsOffset: 'i32',
  labelsStride: 'i32',
});

/** kernels/reduce.wgsl: rows of kept dimensions, each reducing `inner` elements in chunks. */
export const REDUCE = paramLayout('reduce', {
  rows: 'u32',
  inner: 'u32',
  chunkLen: 'u32',
  chunks: 'u32',
  offset: 'i32',
  keptShape: ['u32', MAX_RANK],
  keptStrides: ['i32', MAX_RANK],
  reducedShape: ['u32', MAX_RANK],
  reducedStrides: ['i32', MAX_RANK],
});

/** A convolution's geometry (Conv2dGeometry), first in the im2col and col2im layouts. */
const CONV_GEOMETRY = {
  batch: 'u32',
  channels: 'u32',
  height: 'u32',
  width: 'u32',
  kernelH: 'u32',
  kernelW: 'u32',
  strideH: 'u32',
  strideW: 'u32',
  padH: 'u32',
  padW: 'u32',
  dilationH: 'u32',
  dilationW: 'u32',
  outH: 'u32',
  outW: 'u32',
} as const;

/** kernels/im2col.wgsl: x [N, C, H, W] with strides (n, c, h, w). */
export const IM2COL = paramLayout('im2col', {
  ...CONV_GEOMETRY,
  xOffset: 'i32',
  xStrides: ['i32', 4],
});

/** kernels/col2im.wgsl: the columns matrix. */
export const COL2IM = paramLayout('col2im', {
  ...CONV_GEOMETRY,
  colsOffset: 'i32',
  colsRowStride: 'i32',
  colsColStride: 'i32',
});

/** kernels/pad.wgsl: x [N, C, H, W] copied into a zero-padded dense image, `runs` per row. */
export const PAD = paramLayout('pad', {
  batch: 'u32',
  channels: 'u32',
  height: 'u32',
  width: 'u32',
  padH: 'u32',
  padW: 'u32',
  runs: 'u32',
  xOffset: 'i32',
  xStrides: ['i32', 4],
});

/** A pooling's geometry (Pool2dGeometry); `adaptive` is 0 or 1. */
const POOL_GEOMETRY = {
  batch: 'u32',
  channels: 'u32',
  height: 'u32',
  width: 'u32',
  outH: 'u32',
  outW: 'u32',
  kernelH: 'u32',
  kernelW: 'u32',
  strideH: 'u32',
  strideW: 'u32',
  padH: 'u32',
  padW: 'u32',
  adaptive: 'u32',
} as const;

/** kernels/pool.wgsl: x [N, C, H, W], `runs` per output row. */
export const POOL = paramLayout('pool', {
  ...POOL_GEOMETRY,
  xOffset: 'i32',
  xStrides: ['i32', 4],
  runs: 'u32',
});

/** kernels/pool-backward.wgsl and pool-backward-disjoint.wgsl (which alone reads `runs`). */
export const POOL_BACKWARD = paramLayout('pool-backward', {
  ...POOL_GEOMETRY,
  gradOffset: 'i32',
  gradStrides: ['i32', 4],
  indicesOffset: 'i32',
  indicesStrides: ['i32', 4],
  runs: 'u32',
});

/**
 * kernels/matmul.wgsl, matmul-tiled.wgsl and matmul-blocked.wgsl: out[b] = a[b] @ b[b] for
 * batches from `batchBase`, [B, M, K] and [B, K, N] operands by offset and strides; the blocked
 * kernel's epilogue also reads `pixels` and a window of them (NCHW), `biasOffset`, `summed` (batches summed into one
 * output), `total` (products in all) and, for a gathered operand, where its row (column) and k
 * offsets start in the offset table.
 */
export const MATMUL = paramLayout('matmul', {
  m: 'u32',
  n: 'u32',
  k: 'u32',
  batchBase: 'u32',
  aOffset: 'i32',
  aBatchStride: 'i32',
  aRowStride: 'i32',
  aKStride: 'i32',
  bOffset: 'i32',
  bBatchStride: 'i32',
  bKStride: 'i32',
  bColStride: 'i32',
  pixels: 'u32',
  windowPixels: 'u32',
  windowWidth: 'u32',
  imageWidth: 'u32',
  windowOrigin: 'u32',
  biasOffset: 'u32',
  summed: 'u32',
  tableOuter: 'u32',
  tableK: 'u32',
  total: 'u32',
});

// --- Indexing, scans and sorts along the last dim (area A: gather-along, scan, sort.wgsl). ---

/** kernels/gather-along.wgsl: x (or the scattered values) and index over [rows, k] pairs. */
export const GATHER_ALONG = paramLayout('gather-along', {
  rows: 'u32',
  cols: 'u32',
  k: 'u32',
  xOffset: 'i32',
  xRowStride: 'i32',
  xColStride: 'i32',
  indexOffset: 'i32',
  indexRowStride: 'i32',
  indexColStride: 'i32',
});

/** kernels/scan.wgsl: a strided [rows, cols] view. */
export const SCAN = paramLayout('scan', {
  rows: 'u32',
  cols: 'u32',
  offset: 'i32',
  rowStride: 'i32',
  colStride: 'i32',
});

/** kernels/sort.wgsl: a strided [rows, cols] view, cols padded to a power of two, and one step. */
export const SORT = paramLayout('sort', {
  rows: 'u32',
  cols: 'u32',
  padded: 'u32',
  offset: 'i32',
  rowStride: 'i32',
  colStride: 'i32',
  block: 'u32',
  span: 'u32',
});

/** kernels/norm.wgsl: a contiguous [outer, channels, inner] view (x or g, y, variance offsets). */
export const NORM = paramLayout('norm', {
  outer: 'u32',
  channels: 'u32',
  inner: 'u32',
  eps: 'f32',
  xOffset: 'i32',
  yOffset: 'i32',
  varOffset: 'i32',
});

/** kernels/lstm-cell.wgsl (area D): [B, H] elements; views contiguous from their offsets but c's rows. */
export const LSTM_CELL = paramLayout('lstm-cell', {
  batch: 'u32',
  hidden: 'u32',
  gOffset: 'i32',
  cOffset: 'i32',
  cRowStride: 'i32',
  sOffset: 'i32',
  aOffset: 'i32',
  gsOffset: 'i32',
  ggOffset: 'i32',
  gcOffset: 'i32',
});

/** kernels/gru-cell.wgsl (area D): [B, H] elements; every view contiguous from its offset. */
export const GRU_CELL = paramLayout('gru-cell', {
  batch: 'u32',
  hidden: 'u32',
  xOffset: 'i32',
  hpOffset: 'i32',
  hOffset: 'i32',
  outOffset: 'i32',
  aOffset: 'i32',
  goOffset: 'i32',
});

/**
 * kernels/scale-mask-softmax.wgsl: [A, B, L, C] scores (rows = A·B·L, inner = B, queries = L),
 * contiguous from their offsets; the mask's offset and strides over [A, B, L, C]. The backward
 * reads y at xOffset and g at gOffset.
 */
export const SCALE_MASK_SOFTMAX = paramLayout('scale-mask-softmax', {
  rows: 'u32',
  cols: 'u32',
  queries: 'u32',
  inner: 'u32',
  scale: 'f32',
  xOffset: 'i32',
  gOffset: 'i32',
  outOffset: 'i32',
  mOffset: 'i32',
  mStrideA: 'i32',
  mStrideB: 'i32',
  mStrideL: 'i32',
  mStrideC: 'i32',
});
