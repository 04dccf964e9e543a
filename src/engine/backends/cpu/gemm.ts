/**
 * The CPU backend's fused product (Backend.gemm): the product's rows go straight from the WASM
 * engine through the epilogue (bias per column, relu, NCHW layout) into the output; a sum over
 * the batch is one product with the images' K concatenated. Small products take the JS loops
 * into scratch and the same epilogue.
 */
import type { GemmOptions, OutView, View } from '../../backend';
import { floats, jsMatmul, productOf, WASM_MIN_MACS } from './matmul';
import { matrix } from './pack';
import { CpuBuffer } from './buffer';
import { wasmGemm, type Product, type RowSink } from './wasm-gemm';

let scratch = new CpuBuffer(0);

/**
 * Stores rows of the product: global row R = batch × rowsPerBatch + r, which with nchwPixels is
 * image ⌊R / pixels⌋, pixel R mod pixels of the [images, n, pixels] output, else row R of [·, n].
 */
function epilogueSink(
  out: OutView,
  options: GemmOptions,
  rowsPerBatch: number,
  n: number,
): RowSink {
  const target = floats(out);
  const base = out.offset;
  const relu = options.relu ?? false;
  const pixels = options.nchwPixels ?? 0;
  let bias: Float32Array | null = null;
  if (options.bias) {
    const values = floats(options.bias);
    const { offset, strides } = options.bias;
    bias = new Float32Array(n);
    for (let col = 0; col < n; col++) bias[col] = values[offset + col * strides[0]];
  }
  if (pixels === 0) {
    return (batch, r0, rows, src, at, ldc) => {
      const first = batch * rowsPerBatch + r0;
      for (let i = 0; i < rows; i++) {
        const s = at + i * ldc;
        const d = base + (first + i) * n;
        if (!bias && !relu) {
          target.set(src.subarray(s, s + n), d);
          continue;
        }
        for (let col = 0; col < n; col++) {
          let v = src[s + col];
          if (bias) v += bias[col];
          target[d + col] = relu && v < 0 ? 0 : v;
        }
      }
    };
  }
  // NCHW: a run of rows within one image is a run of pixels, so each column is stored as one
  // contiguous run of its plane (reads stride ldc through rows that are still in cache).
  return (batch, r0, rows, src, at, ldc) => {
    let row = batch * rowsPerBatch + r0;
    const end = row + rows;
    while (row < end) {
      const image = Math.floor(row / pixels);
      const pixel = row - image * pixels;
      const run = Math.min(end - row, pixels - pixel);
      const from = at + (row - batch * rowsPerBatch - r0) * ldc;
      for (let col = 0; col < n; col++) {
        let d = base + (image * n + col) * pixels + pixel;
        let s = from + col;
        if (!bias && !relu) {
          for (let r = 0; r < run; r++, s += ldc, d++) target[d] = src[s];
          continue;
        }
        const b = bias ? bias[col] : 0;
        for (let r = 0; r < run; r++, s += ldc, d++) {
          const v = src[s] + b;
          target[d] = relu && v < 0 ? 0 : v;
        }
      }
      row += run;
    }
  };
}

/** Σ_b a[b] @ b[b] as one product of [m, batch·k] and [batch·k, n] (no per-image results). */
function summedProduct(a: View, b: View): Omit<Product, 'sink'> {
  const [batch, m, k] = a.shape;
  const n = b.shape[2];
  const aMatrix = {
    ...matrix(floats(a), a.offset, m, batch * k, a.strides[1], a.strides[2]),
    colGroup: k,
    colGroupStride: a.strides[0],
  };
  const bMatrix = {
    ...matrix(floats(b), b.offset, batch * k, n, b.strides[1], b.strides[2]),
    rowGroup: k,
    rowGroupStride: b.strides[0],
  };
  return { batches: 1, m, k: batch * k, n, a: () => aMatrix, b: () => bMatrix };
}

/**
 * B with all strides 0 is one value v everywhere (a bias gradient's column of ones): each
 * product element is v × a row sum of A, so this sums rows (in float64) instead of packing A.
 */
function constantProduct(a: View, b: View, out: OutView, options: GemmOptions): void {
  const [batch, m, k] = a.shape;
  const n = b.shape[2];
  const v = floats(b)[b.offset];
  const aa = floats(a);
  const [as0, as1, as2] = a.strides;
  const batches = options.sumBatches ? 1 : batch;
  const values = new Float32Array(m * n);
  const sink = epilogueSink(out, options, m, n);
  for (let o = 0; o < batches; o++) {
    for (let i = 0; i < m; i++) {
      let sum = 0;
      for (let s = options.sumBatches ? 0 : o; s < (options.sumBatches ? batch : o + 1); s++) {
        let at = a.offset + s * as0 + i * as1;
        for (let t = 0; t < k; t++, at += as2) sum += aa[at];
      }
      values.fill(v * sum, i * n, (i + 1) * n);
    }
    sink(o, 0, m, values, 0, n);
  }
}

export function gemmKernel(a: View, b: View, out: OutView, options: GemmOptions): void {
  const [batch, m, k] = a.shape;
  const n = b.shape[2];
  if (b.strides.every((stride) => stride === 0)) {
    constantProduct(a, b, out, options);
    return;
  }
  const engine = batch * m * n * k >= WASM_MIN_MACS && k > 0 ? wasmGemm() : null;
  if (engine) {
    const product = options.sumBatches
      ? { ...summedProduct(a, b), rowsPerBatch: m }
      : productOf(a, b);
    const sink = epilogueSink(out, options, product.rowsPerBatch, n);
    if (engine.product({ ...product, sink })) return;
  }
  // Small (or too big for the WASM memory): every batch's product into scratch, summed in place
  // if asked, then the epilogue.
  const size = batch * m * n;
  if (scratch.f32.length < size) scratch = new CpuBuffer(size * 4);
  const values = scratch.f32;
  jsMatmul(a, b, {
    buffer: scratch,
    dtype: 'float32',
    shape: [batch, m, n],
    strides: [m * n, n, 1],
    offset: 0,
  });
  const batches = options.sumBatches ? 1 : batch;
  if (options.sumBatches) {
    for (let s = 1; s < batch; s++) {
      for (let t = 0; t < m * n; t++) values[t] += values[s * m * n + t];
    }
  }
  const sink = epilogueSink(out, options, m, n);
  for (let bi = 0; bi < batches; bi++) sink(bi, 0, m, values, bi * m * n, n);
}
