/**
 * The GEMM half of a convolution as one fused op: unfolded columns [N*oH*oW, C*kH*kW] times the
 * flattened weight, with the bias added and the NCHW output written by the product's epilogue (no
 * permute copy, no separate bias pass). Its backward is GEMMs too: the columns' gradient is a
 * batched product per image, and the weight and bias gradients sum per-image products inside one
 * kernel (Backend.gemm with sumBatches), so no [N, O, CKK] intermediate or reduction pass exists.
 */
import { withGrad } from '../autograd';
import type { Conv2dGeometry, View } from '../backend';
import { isContiguous } from '../shape';
import type { Tensor } from '../tensor';
import { full } from './creation';
import { clone, reshape } from './shape-ops';
import { emptyTensor, inputsDevice, kernelView } from './support';

/** A contiguous tensor as a kernel view of another shape and strides. */
function viewAs(t: Tensor, shape: number[], strides: number[]): View {
  return { ...kernelView(t), shape, strides };
}

const dense = (t: Tensor): Tensor => (isContiguous(t.shape, t.strides) ? t : clone(t));

/**
 * columns [P, CKK] (P = N*oH*oW) and weight [O, C, kH, kW] (+ bias [O]) → [N, O, oH, oW].
 * Gradients flow to columns, weight and bias.
 */
export function convColumnsGemm(
  columns: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  g: Conv2dGeometry,
): Tensor {
  const device = inputsDevice('conv2d', columns, weight, bias);
  const outChannels = weight.shape[0];
  const ckk = g.inChannels * g.kernelHeight * g.kernelWidth;
  const pixels = g.outHeight * g.outWidth;
  const rows = g.batch * pixels;
  const cols = dense(columns);
  const w = dense(weight);
  const b = bias ? dense(bias) : null;
  const out = emptyTensor(device, 'float32', [g.batch, outChannels, g.outHeight, g.outWidth]);
  if (out.numel() > 0) {
    device.backend.gemm(
      viewAs(cols, [1, rows, ckk], [0, ckk, 1]),
      // Wᵀ: [CKK, O] read straight from the [O, CKK] weight.
      viewAs(w, [1, ckk, outChannels], [0, 1, ckk]),
      kernelView(out),
      { bias: b ? kernelView(b) : null, nchwPixels: pixels },
    );
  }
  return withGrad('ConvolutionBackward0', [columns, weight, bias], out, (save) => {
    const [needColumns, needWeight, needBias] = [
      columns.requiresGrad,
      weight.requiresGrad,
      bias?.requiresGrad ?? false,
    ];
    const savedCols = needWeight ? save(cols) : null;
    const savedW = needColumns ? save(w) : null;
    return (grad) => {
      const gd = dense(grad);
      // g as per-image [O, HW] (row-major in NCHW) and as [HW, O] (its transpose).
      const gImages = viewAs(gd, [g.batch, outChannels, pixels], [outChannels * pixels, pixels, 1]);
      let dColumns: Tensor | null = null;
      if (savedW) {
        dColumns = emptyTensor(device, 'float32', [rows, ckk]);
        device.backend.matmul(
          viewAs(gd, [g.batch, pixels, outChannels], [outChannels * pixels, 1, pixels]),
          viewAs(savedW, [g.batch, outChannels, ckk], [0, ckk, 1]),
          viewAs(dColumns, [g.batch, pixels, ckk], [pixels * ckk, ckk, 1]),
        );
      }
      let dWeight: Tensor | null = null;
      if (savedCols) {
        const flat = emptyTensor(device, 'float32', [outChannels, ckk]);
        device.backend.gemm(
          gImages,
          viewAs(savedCols, [g.batch, pixels, ckk], [pixels * ckk, ckk, 1]),
          viewAs(flat, [1, outChannels, ckk], [0, ckk, 1]),
          { sumBatches: true },
        );
        dWeight = reshape(flat, weight.shape);
      }
      let dBias: Tensor | null = null;
      if (needBias) {
        // Σ over images and pixels: each image's [O, HW] times a column of ones (one stored 1).
        const one = full([1], 1, { device });
        dBias = emptyTensor(device, 'float32', [outChannels]);
        device.backend.gemm(
          gImages,
          viewAs(one, [g.batch, pixels, 1], [0, 0, 0]),
          viewAs(dBias, [1, outChannels, 1], [0, 1, 1]),
          { sumBatches: true },
        );
      }
      return [dColumns, dWeight, dBias];
    };
  });
}
