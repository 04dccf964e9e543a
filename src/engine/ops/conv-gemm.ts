/**
 * Convolution products as fused ops, in two forms. Over unfolded columns [N*oH*oW, C*kH*kW]
 * (convColumnsGemm): the columns times the flattened weight, with the bias added and the NCHW
 * output written by the product's epilogue (no permute copy, no separate bias pass); its backward
 * is GEMMs too: the columns' gradient is a batched product per image, and the weight gradient sums
 * per-image products inside one kernel (Backend.gemm with sumBatches), so no [N, O, CKK]
 * intermediate exists. In place (convImplicitGemm), where the backend reads the image's windows
 * itself: no columns at all, and a stride-1 input gradient is a convolution as well. Bias
 * gradients are two row reductions in both.
 */
import { withGrad } from '../autograd';
import type { Conv2dGeometry, View } from '../backend';
import { isContiguous } from '../shape';
import type { Tensor } from '../tensor';
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
    const savedCols = weight.requiresGrad ? save(cols) : null;
    const savedW = columns.requiresGrad ? save(w) : null;
    const needBias = bias?.requiresGrad ?? false;
    return (grad) => {
      const gd = dense(grad);
      const dColumns = savedW ? columnsGrad(gd, savedW, g) : null;
      let dWeight: Tensor | null = null;
      if (savedCols) {
        const flat = emptyTensor(device, 'float32', [outChannels, ckk]);
        device.backend.gemm(
          imagesOf(gd, g),
          viewAs(savedCols, [g.batch, pixels, ckk], [pixels * ckk, ckk, 1]),
          viewAs(flat, [1, outChannels, ckk], [0, ckk, 1]),
          { sumBatches: true },
        );
        dWeight = reshape(flat, weight.shape);
      }
      return [dColumns, dWeight, needBias ? biasGrad(gd, g) : null];
    };
  });
}

/** The output gradient (dense, NCHW) as per-image [O, HW] matrices. */
function imagesOf(gd: Tensor, g: Conv2dGeometry): View {
  const [outChannels, pixels] = [gd.shape[1], g.outHeight * g.outWidth];
  return viewAs(gd, [g.batch, outChannels, pixels], [outChannels * pixels, pixels, 1]);
}

/** The columns' gradient [N*oH*oW, CKK]: per image, gradᵀ [HW, O] @ weight [O, CKK]. */
function columnsGrad(gd: Tensor, w: Tensor, g: Conv2dGeometry): Tensor {
  const [outChannels, pixels] = [gd.shape[1], g.outHeight * g.outWidth];
  const ckk = g.inChannels * g.kernelHeight * g.kernelWidth;
  const device = inputsDevice('conv2d backward', gd);
  const dColumns = emptyTensor(device, 'float32', [g.batch * pixels, ckk]);
  device.backend.matmul(
    viewAs(gd, [g.batch, pixels, outChannels], [outChannels * pixels, 1, pixels]),
    viewAs(w, [g.batch, outChannels, ckk], [0, ckk, 1]),
    viewAs(dColumns, [g.batch, pixels, ckk], [pixels * ckk, ckk, 1]),
  );
  return dColumns;
}

/**
 * Σ over images and pixels as two row reductions (pixels, then images), each with one output per
 * row to spread over the device — a product with a column of ones would leave a few invocations
 * looping over the whole batch.
 */
function biasGrad(gd: Tensor, g: Conv2dGeometry): Tensor {
  const device = inputsDevice('conv2d backward', gd);
  const outChannels = gd.shape[1];
  const pixels = g.outHeight * g.outWidth;
  const perImage = emptyTensor(device, 'float32', [g.batch, outChannels]);
  device.backend.reduce(
    'sum',
    viewAs(gd, [g.batch * outChannels, pixels], [pixels, 1]),
    1,
    viewAs(perImage, [g.batch * outChannels], [1]),
  );
  const dBias = emptyTensor(device, 'float32', [outChannels]);
  device.backend.reduce(
    'sum',
    viewAs(perImage, [outChannels, g.batch], [1, outChannels]),
    1,
    kernelView(dBias),
  );
  return dBias;
}

/**
 * Whether the input gradient can run as a convolution of the output gradient (stride 1, and no
 * more padding than the kernel's reach, so the reverse padding below is not negative).
 */
function inputGradIsConv(g: Conv2dGeometry): boolean {
  return (
    g.strideH === 1 &&
    g.strideW === 1 &&
    g.padH <= g.dilationH * (g.kernelHeight - 1) &&
    g.padW <= g.dilationW * (g.kernelWidth - 1)
  );
}

/**
 * The input gradient of a stride-1 convolution, written into dx: itself a convolution, of the
 * output gradient padded by the kernel's reach (less the forward padding) with the weight flipped
 * in space and transposed to [C, O, kH, kW], so it runs as an implicit GEMM too: no columns, no
 * col2im pass, no padded copy (the kernel reads zeros outside the image).
 */
function inputGradAsConv(gd: Tensor, w: Tensor, g: Conv2dGeometry, dx: Tensor): void {
  const backend = inputsDevice('conv2d backward', gd).backend;
  const [outChannels, kh, kw] = [gd.shape[1], g.kernelHeight, g.kernelWidth];
  // flipped[c, o, i, j] = w[o, c, kH-1-i, kW-1-j]: a view with negative spatial strides, copied.
  const flipped = emptyTensor(inputsDevice('conv2d backward', w), 'float32', [
    g.inChannels,
    outChannels,
    kh,
    kw,
  ]);
  const weight = kernelView(w);
  backend.unary(
    'copy',
    {
      ...weight,
      shape: flipped.shape,
      offset: weight.offset + kh * kw - 1,
      strides: [kh * kw, g.inChannels * kh * kw, -kw, -1],
    },
    kernelView(flipped),
  );
  const reverse: Conv2dGeometry = {
    ...g,
    inChannels: outChannels,
    inHeight: g.outHeight,
    inWidth: g.outWidth,
    padH: g.dilationH * (kh - 1) - g.padH,
    padW: g.dilationW * (kw - 1) - g.padW,
    outHeight: g.inHeight,
    outWidth: g.inWidth,
  };
  backend.conv2d!(kernelView(gd), kernelView(flipped), null, reverse, kernelView(dx));
}

/** Whether `conv2d` can read the input's windows in place (implicit GEMM) on this device. */
export function canConvImplicit(x: Tensor): boolean {
  const backend = inputsDevice('conv2d', x).backend;
  return !!backend.conv2d && !!backend.conv2dWeightGrad;
}

/**
 * x [N, C, H, W] ⊛ weight [O, C, kH, kW] + bias → [N, O, oH, oW] as an implicit GEMM: the
 * backend reads x's windows in place for the product and for the weight gradient, and x's own
 * gradient is a convolution too at stride 1; only a strided convolution's input gradient still
 * goes through a column matrix (folded back by col2im).
 */
export function convImplicitGemm(
  x: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  g: Conv2dGeometry,
): Tensor {
  const device = inputsDevice('conv2d', x, weight, bias);
  const backend = device.backend;
  const outChannels = weight.shape[0];
  const ckk = g.inChannels * g.kernelHeight * g.kernelWidth;
  const w = dense(weight);
  const b = bias ? dense(bias) : null;
  const out = emptyTensor(device, 'float32', [g.batch, outChannels, g.outHeight, g.outWidth]);
  if (out.numel() > 0) {
    backend.conv2d!(kernelView(x), kernelView(w), b ? kernelView(b) : null, g, kernelView(out));
  }
  return withGrad('ConvolutionBackward0', [x, weight, bias], out, (save) => {
    const savedX = weight.requiresGrad ? save(x) : null;
    const savedW = x.requiresGrad ? save(w) : null;
    const needBias = bias?.requiresGrad ?? false;
    return (grad) => {
      const gd = dense(grad);
      let dx: Tensor | null = null;
      if (savedW) {
        dx = emptyTensor(device, 'float32', [g.batch, g.inChannels, g.inHeight, g.inWidth]);
        if (inputGradIsConv(g)) inputGradAsConv(gd, savedW, g, dx);
        else backend.col2im(kernelView(columnsGrad(gd, savedW, g)), g, kernelView(dx));
      }
      let dWeight: Tensor | null = null;
      if (savedX) {
        const flat = emptyTensor(device, 'float32', [outChannels, ckk]);
        backend.conv2dWeightGrad!(kernelView(savedX), kernelView(gd), g, kernelView(flat));
        dWeight = reshape(flat, weight.shape);
      }
      return [dx, dWeight, needBias ? biasGrad(gd, g) : null];
    };
  });
}
