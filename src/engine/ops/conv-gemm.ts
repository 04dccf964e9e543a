/**
 * The convolution op over the backend's convolution kernels (Kernels.conv2d, conv2dWeightGrad):
 * the product, bias and NCHW layout are one kernel, the weight gradient another, and a stride-1
 * input gradient is itself a convolution (of the output gradient with the flipped weight); only a
 * strided convolution's input gradient goes through a column matrix, folded back by col2im. Bias
 * gradients are two row reductions. How a backend convolves (WebGPU reads the image's windows in
 * place, the CPU unfolds them into columns) is its own business.
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
 * in space and transposed to [C, O, kH, kW], so it runs as the backend's convolution too: no
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
  backend.conv2d(kernelView(gd), kernelView(flipped), null, reverse, kernelView(dx));
}

/**
 * x [N, C, H, W] ⊛ weight [O, C, kH, kW] + bias → [N, O, oH, oW], differentiable in all three.
 */
export function convolve(
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
    backend.conv2d(kernelView(x), kernelView(w), b ? kernelView(b) : null, g, kernelView(out));
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
        if (inputGradIsConv(g) && backend.capability('inputGradAsConvolution')) {
          inputGradAsConv(gd, savedW, g, dx);
        } else backend.col2im(kernelView(columnsGrad(gd, savedW, g)), g, kernelView(dx));
      }
      let dWeight: Tensor | null = null;
      if (savedX) {
        const flat = emptyTensor(device, 'float32', [outChannels, ckk]);
        backend.conv2dWeightGrad(kernelView(savedX), kernelView(gd), g, kernelView(flat));
        dWeight = reshape(flat, weight.shape);
      }
      return [dx, dWeight, needBias ? biasGrad(gd, g) : null];
    };
  });
}
