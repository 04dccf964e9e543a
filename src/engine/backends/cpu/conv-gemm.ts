/**
 * The CPU's convolution (Kernels.conv2d and conv2dWeightGrad) as a composition of its own
 * kernels: the image's windows unfolded into columns [N*oH*oW, C*kH*kW] (im2col), then one fused
 * GEMM — with the bias added and the NCHW output written by its epilogue for the forward pass,
 * summed over images inside the product for the weight gradient. The columns are scratch from the
 * backend's pool, given back before the kernel returns (CPU kernels run to completion).
 */
import type { Conv2dGeometry, OutView, View } from '../../backend';
import type { CpuBufferPool } from './buffer-pool';
import type { CpuBuffer } from './buffer';
import { im2colKernel } from './conv';
import { gemmKernel } from './gemm';

/** Runs `then` with x's columns in a pooled scratch buffer. */
function withColumns(
  pool: CpuBufferPool,
  x: View,
  g: Conv2dGeometry,
  then: (columns: View) => void,
): void {
  const rows = g.batch * g.outHeight * g.outWidth;
  const ckk = g.inChannels * g.kernelHeight * g.kernelWidth;
  const scratch: CpuBuffer = pool.take(rows * ckk * 4);
  const columns: View = {
    buffer: scratch,
    dtype: 'float32',
    shape: [rows, ckk],
    strides: [ckk, 1],
    offset: 0,
  };
  try {
    im2colKernel(x, g, columns);
    then(columns);
  } finally {
    pool.give(scratch);
  }
}

export function conv2dColumns(
  pool: CpuBufferPool,
  x: View,
  weight: View,
  bias: View | null,
  g: Conv2dGeometry,
  out: OutView,
): void {
  const outChannels = weight.shape[0];
  const ckk = g.inChannels * g.kernelHeight * g.kernelWidth;
  const rows = g.batch * g.outHeight * g.outWidth;
  withColumns(pool, x, g, (columns) =>
    gemmKernel(
      { ...columns, shape: [1, rows, ckk], strides: [0, ckk, 1] },
      // Wᵀ: [CKK, O] read straight from the dense [O, CKK] weight.
      { ...weight, shape: [1, ckk, outChannels], strides: [0, 1, ckk] },
      out,
      { bias, nchwPixels: g.outHeight * g.outWidth },
    ),
  );
}

export function conv2dWeightGradColumns(
  pool: CpuBufferPool,
  x: View,
  grad: View,
  g: Conv2dGeometry,
  out: OutView,
): void {
  const outChannels = grad.shape[1];
  const pixels = g.outHeight * g.outWidth;
  const ckk = g.inChannels * g.kernelHeight * g.kernelWidth;
  withColumns(pool, x, g, (columns) =>
    gemmKernel(
      // Per image, grad [O, HW] @ columns [HW, CKK], summed over images by the product.
      {
        ...grad,
        shape: [g.batch, outChannels, pixels],
        strides: [outChannels * pixels, pixels, 1],
      },
      { ...columns, shape: [g.batch, pixels, ckk], strides: [pixels * ckk, ckk, 1] },
      { ...out, shape: [1, outChannels, ckk], strides: [0, ckk, 1] },
      { sumBatches: true },
    ),
  );
}
