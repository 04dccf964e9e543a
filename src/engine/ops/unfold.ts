/**
 * A convolution's windows as columns and back, over the backend's im2col and col2im kernels:
 * `unfoldColumns` x [N, C, H, W] → [N·oH·oW, C·kH·kW] and `foldColumns`, its adjoint (overlaps
 * summed). Each is the other's gradient. Grouped and transposed convolutions (conv-grouped.ts) are
 * products around them; F.unfold and F.fold (unfold-windows.ts) are them in PyTorch's layout.
 */
import { withGrad } from '../autograd';
import type { Conv2dGeometry } from '../backend';
import { isContiguous } from '../shape';
import type { Tensor } from '../tensor';
import { clone } from './shape-ops';
import { emptyTensor, inputsDevice, kernelView } from './support';

/** x [N, C, H, W] (any strides) → columns [N·oH·oW, C·kH·kW], zeros where a window is padding. */
export function unfoldColumns(x: Tensor, g: Conv2dGeometry): Tensor {
  const device = inputsDevice('unfold', x);
  const rows = g.batch * g.outHeight * g.outWidth;
  const out = emptyTensor(device, 'float32', [rows, g.inChannels * g.kernelHeight * g.kernelWidth]);
  if (out.numel() > 0) device.backend.im2col(kernelView(x), g, kernelView(out));
  return withGrad('Im2ColBackward0', [x], out, () => (grad) => [foldColumns(grad, g)]);
}

/** columns [N·oH·oW, C·kH·kW] → [N, C, H, W], each window added back where it came from. */
export function foldColumns(columns: Tensor, g: Conv2dGeometry): Tensor {
  const device = inputsDevice('fold', columns);
  const dense = isContiguous(columns.shape, columns.strides) ? columns : clone(columns);
  const out = emptyTensor(device, 'float32', [g.batch, g.inChannels, g.inHeight, g.inWidth]);
  if (out.numel() > 0) device.backend.col2im(kernelView(dense), g, kernelView(out));
  if (dense !== columns) dense.dispose();
  return withGrad('Col2ImBackward0', [columns], out, () => (grad) => [unfoldColumns(grad, g)]);
}
