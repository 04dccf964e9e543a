/**
 * CPU batched matmul: products large enough to pay for packing go to the WebAssembly SIMD engine
 * (wasm-gemm.ts; per-image products with a shared B as one stacked product); small ones run the
 * float64 JS loops — operands made row-major (copied only when they are not), i-k-j order, four
 * rows of A at a time so each loaded element of B feeds four accumulators. Skinny products (at
 * most SKINNY rows or columns, e.g. a linear layer with one output over a million points, or its
 * weight gradient) are dot products over the strided operands as they lie: packing them for the
 * SIMD kernel moves as much memory as the product reads, for a sliver of work.
 */
import type { OutView, View } from '../../backend';
import { arrayOf } from './buffer';
import { matrix, type Matrix } from './pack';
import { rowMajorSink, wasmGemm, type Product } from './wasm-gemm';

/** Products at least this large go to the WebAssembly SIMD kernel (its copies in and out cost). */
export const WASM_MIN_MACS = 1 << 15;

/** Products with at most this many rows or columns per batch take `skinnyMatmul`. */
export const SKINNY = 4;

/** Scratch reused across calls: matmul allocates nothing per element and little per call. */
let scratchA = new Float32Array(0);
let scratchB = new Float32Array(0);
let scratchAcc = new Float64Array(0);

export function floats(view: View): Float32Array {
  const array = arrayOf(view);
  if (!(array instanceof Float32Array)) throw new TypeError('matmul: operands must be float32');
  return array;
}

/** Returns [array, offset] of a rows×cols row-major copy of a strided 2-D slice. */
function rowMajor(
  src: Float32Array,
  offset: number,
  rows: number,
  cols: number,
  rowStride: number,
  colStride: number,
  scratch: Float32Array,
): [Float32Array, number] {
  if ((colStride === 1 || cols === 1) && (rowStride === cols || rows === 1)) return [src, offset];
  for (let r = 0; r < rows; r++) {
    const base = offset + r * rowStride;
    const to = r * cols;
    for (let c = 0; c < cols; c++) scratch[to + c] = src[base + c * colStride];
  }
  return [scratch, 0];
}

/** C[m×n] = A[m×k] @ B[k×n], all row-major. */
function gemm(
  A: Float32Array,
  aOff: number,
  B: Float32Array,
  bOff: number,
  C: Float32Array,
  cOff: number,
  m: number,
  k: number,
  n: number,
  acc: Float64Array,
): void {
  for (let i = 0; i < m; i += 4) {
    const rows = Math.min(4, m - i);
    acc.fill(0, 0, 4 * n);
    const a0 = aOff + i * k;
    if (rows === 4) {
      const n2 = 2 * n;
      const n3 = 3 * n;
      for (let p = 0; p < k; p++) {
        const x0 = A[a0 + p];
        const x1 = A[a0 + k + p];
        const x2 = A[a0 + 2 * k + p];
        const x3 = A[a0 + 3 * k + p];
        const br = bOff + p * n;
        for (let j = 0; j < n; j++) {
          const b = B[br + j];
          acc[j] += x0 * b;
          acc[n + j] += x1 * b;
          acc[n2 + j] += x2 * b;
          acc[n3 + j] += x3 * b;
        }
      }
    } else {
      for (let r = 0; r < rows; r++) {
        const ar = a0 + r * k;
        const cr = r * n;
        for (let p = 0; p < k; p++) {
          const x = A[ar + p];
          const br = bOff + p * n;
          for (let j = 0; j < n; j++) acc[cr + j] += x * B[br + j];
        }
      }
    }
    const c0 = cOff + i * n;
    for (let t = 0; t < rows * n; t++) C[c0 + t] = acc[t];
  }
}

/** out[b] = a[b] @ b[b] with the float64 JS loops (small products, or no WebAssembly SIMD). */
export function jsMatmul(a: View, b: View, out: OutView): void {
  const [batch, m, k] = a.shape;
  const n = b.shape[2];
  const aArr = floats(a);
  const bArr = floats(b);
  const o = floats(out);
  if (scratchA.length < m * k) scratchA = new Float32Array(m * k);
  if (scratchB.length < k * n) scratchB = new Float32Array(k * n);
  if (scratchAcc.length < 4 * n) scratchAcc = new Float64Array(4 * n);
  for (let bi = 0; bi < batch; bi++) {
    const [A, aOff] = rowMajor(
      aArr,
      a.offset + bi * a.strides[0],
      m,
      k,
      a.strides[1],
      a.strides[2],
      scratchA,
    );
    const [B, bOff] = rowMajor(
      bArr,
      b.offset + bi * b.strides[0],
      k,
      n,
      b.strides[1],
      b.strides[2],
      scratchB,
    );
    gemm(A, aOff, B, bOff, o, out.offset + bi * m * n, m, k, n, scratchAcc);
  }
}

/**
 * The product as the WASM engine takes it: per-batch products whose B is shared (batch stride
 * 0) become one product with the batches' rows stacked (M = batch × m, B packed once), so
 * `rowsPerBatch` then is batch × m and the sink sees batch 0 only.
 */
export function productOf(a: View, b: View): Omit<Product, 'sink'> & { rowsPerBatch: number } {
  const [batch, m, k] = a.shape;
  const n = b.shape[2];
  const aArr = floats(a);
  const bArr = floats(b);
  const [as0, as1, as2] = a.strides;
  const [bs0, bs1, bs2] = b.strides;
  if (batch > 1 && bs0 === 0) {
    const stacked: Matrix = {
      ...matrix(aArr, a.offset, batch * m, k, as1, as2),
      rowGroup: m,
      rowGroupStride: as0,
    };
    const shared = matrix(bArr, b.offset, k, n, bs1, bs2);
    return {
      batches: 1,
      m: batch * m,
      k,
      n,
      a: () => stacked,
      b: () => shared,
      rowsPerBatch: batch * m,
    };
  }
  return {
    batches: batch,
    m,
    k,
    n,
    a: (bi) => matrix(aArr, a.offset + bi * as0, m, k, as1, as2),
    b: (bi) => matrix(bArr, b.offset + bi * bs0, k, n, bs1, bs2),
    rowsPerBatch: m,
  };
}

export function matmulKernel(a: View, b: View, out: OutView): void {
  const [batch, m, k] = a.shape;
  const n = b.shape[2];
  if (Math.min(m, n) <= SKINNY && batch * m * n * k >= WASM_MIN_MACS) {
    skinnyMatmul(a, b, out);
    return;
  }
  const engine = batch * m * n * k >= WASM_MIN_MACS ? wasmGemm() : null;
  const product = engine ? productOf(a, b) : null;
  // Contiguous output: batch b's rows follow batch b - 1's, stacked or not.
  const sink = rowMajorSink(floats(out), out.offset, product?.rowsPerBatch ?? m, n);
  if (!engine || !product || !engine.product({ ...product, sink })) jsMatmul(a, b, out);
}

/**
 * out[b] = a[b] @ b[b] for m ≤ SKINNY or n ≤ SKINNY, reading both operands in place through their
 * strides, accumulating in float64: row by row for few columns (each row of A meets all of B's
 * columns at once), or down the shared dimension for few rows (each row of B is read once).
 */
export function skinnyMatmul(a: View, b: View, out: OutView): void {
  const [batch, m, k] = a.shape;
  const n = b.shape[2];
  const A = floats(a);
  const B = floats(b);
  const O = floats(out);
  const [as0, as1, as2] = a.strides;
  const [bs0, bs1, bs2] = b.strides;
  const acc = new Float64Array(n <= SKINNY ? n : m * n);
  for (let bi = 0; bi < batch; bi++) {
    const aBase = a.offset + bi * as0;
    const bBase = b.offset + bi * bs0;
    const oBase = out.offset + bi * m * n;
    if (n === 1) {
      // A matrix-vector product: one dot product per row.
      for (let i = 0; i < m; i++) {
        let sum = 0;
        for (let p = 0, ap = aBase + i * as1, bp = bBase; p < k; p++, ap += as2, bp += bs1) {
          sum += A[ap] * B[bp];
        }
        O[oBase + i] = sum;
      }
      continue;
    }
    if (n <= SKINNY) {
      for (let i = 0; i < m; i++) {
        acc.fill(0);
        for (let p = 0, ap = aBase + i * as1, bp = bBase; p < k; p++, ap += as2, bp += bs1) {
          const x = A[ap];
          for (let j = 0, bj = bp; j < n; j++, bj += bs2) acc[j] += x * B[bj];
        }
        for (let j = 0; j < n; j++) O[oBase + i * n + j] = acc[j];
      }
      continue;
    }
    acc.fill(0);
    for (let p = 0, bp = bBase; p < k; p++, bp += bs1) {
      for (let i = 0, ap = aBase + p * as2; i < m; i++, ap += as1) {
        const x = A[ap];
        for (let j = 0, bj = bp, t = i * n; j < n; j++, bj += bs2, t++) acc[t] += x * B[bj];
      }
    }
    for (let t = 0; t < m * n; t++) O[oBase + t] = acc[t];
  }
}
