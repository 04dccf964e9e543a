/**
 * The CPU backend's fused product (Backend.gemm): the plain batched matmul into scratch, then the
 * epilogue (sum over the batch, bias per column, relu, NCHW layout) in one pass over the result.
 */
import type { GemmOptions, OutView, View } from '../../backend';
import { asCpuBuffer, arrayOf } from './buffer';
import { CpuBuffer } from './buffer';
import { matmulKernel } from './matmul';

let scratch = new CpuBuffer(0);

export function gemmKernel(a: View, b: View, out: OutView, options: GemmOptions): void {
  const [batch, m] = a.shape;
  const n = b.shape[2];
  const size = batch * m * n;
  if (scratch.f32.length < size) scratch = new CpuBuffer(size * 4);
  const product: OutView = {
    buffer: scratch,
    dtype: 'float32',
    shape: [batch, m, n],
    strides: [m * n, n, 1],
    offset: 0,
  };
  matmulKernel(a, b, product);
  const values = scratch.f32;
  const target = asCpuBuffer(out.buffer).f32;
  const bias = options.bias ? (arrayOf(options.bias) as Float32Array) : null;
  const biasOffset = options.bias?.offset ?? 0;
  const biasStride = options.bias?.strides[0] ?? 0;
  const pixels = options.nchwPixels ?? 0;
  const batches = options.sumBatches ? 1 : batch;
  for (let bi = 0; bi < batches; bi++) {
    for (let row = 0; row < m; row++) {
      const image = pixels ? Math.floor(row / pixels) : 0;
      const pixel = pixels ? row - image * pixels : 0;
      for (let col = 0; col < n; col++) {
        let v = 0;
        if (options.sumBatches) {
          for (let s = 0; s < batch; s++) v += values[(s * m + row) * n + col];
        } else {
          v = values[(bi * m + row) * n + col];
        }
        if (bias) v += bias[biasOffset + col * biasStride];
        if (options.relu && v < 0) v = 0;
        const at = pixels
          ? bi * m * n + (image * n + col) * pixels + pixel
          : (bi * m + row) * n + col;
        target[out.offset + at] = v;
      }
    }
  }
}
