/** F.unfold and F.fold: the window columns of ops/unfold.ts in PyTorch's [N, C·kH·kW, L] layout. */
import type { Conv2dGeometry } from '../backend';
import { formatShape, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { convGeometry, type Pair } from './conv';
import { reshape, squeeze, transpose, unsqueeze } from './shape-ops';
import { inputsDevice, requireFloat, scoped } from './support';
import { foldColumns, unfoldColumns } from './unfold';

export interface UnfoldOptions {
  dilation?: Pair;
  padding?: Pair;
  stride?: Pair;
}

function checkWindows(name: string, g: Conv2dGeometry, x: Tensor): void {
  const values = [g.strideH, g.strideW, g.dilationH, g.dilationW, g.kernelHeight, g.kernelWidth];
  if (values.some((v) => !Number.isInteger(v) || v < 1) || g.padH < 0 || g.padW < 0)
    throw new ShapeError(
      `${name}: kernel_size, dilation and stride must be positive and padding non-negative`,
    );
  if (g.outHeight < 1 || g.outWidth < 1)
    throw new ShapeError(
      `${name}: input ${formatShape(x.shape)} is too small for a ${g.kernelHeight}x${g.kernelWidth} ` +
        `kernel (dilation ${g.dilationH}x${g.dilationW}, padding ${g.padH}x${g.padW})`,
    );
}

/** F.unfold: x [N, C, H, W] (or [C, H, W]) → [N, C·kH·kW, L], L the number of windows. */
export function unfoldWindows(x: Tensor, kernel: Pair, options: UnfoldOptions = {}): Tensor {
  inputsDevice('unfold', x);
  requireFloat('unfold', x);
  if (x.ndim === 3)
    return scoped(() => squeeze(unfoldWindows(unsqueeze(x, 0), kernel, options), 0));
  if (x.ndim !== 4)
    throw new ShapeError(`unfold: expected a 3-D or 4-D input, got ${formatShape(x.shape)}`);
  const g = convGeometry(x.shape, kernel, options.stride, options.padding, options.dilation);
  checkWindows('unfold', g, x);
  return scoped(() => {
    const columns = unfoldColumns(x, g);
    const windows = g.outHeight * g.outWidth;
    return transpose(reshape(columns, [g.batch, windows, columns.shape[1]]), 1, 2);
  });
}

/** F.fold: columns [N, C·kH·kW, L] (or [C·kH·kW, L]) → [N, C, H, W] with H, W = outputSize. */
export function foldWindows(
  columns: Tensor,
  outputSize: Pair,
  kernel: Pair,
  options: UnfoldOptions = {},
): Tensor {
  inputsDevice('fold', columns);
  requireFloat('fold', columns);
  if (columns.ndim === 2)
    return scoped(() =>
      squeeze(foldWindows(unsqueeze(columns, 0), outputSize, kernel, options), 0),
    );
  if (columns.ndim !== 3)
    throw new ShapeError(`fold: expected a 2-D or 3-D input, got ${formatShape(columns.shape)}`);
  const [batch, ckk, windows] = columns.shape;
  const kk = kernel[0] * kernel[1];
  if (ckk % kk !== 0)
    throw new ShapeError(
      `fold: expected size of input's dimension 1 to be divisible by the product of kernel_size, ` +
        `but got input.size(1)=${ckk} and kernel_size=(${kernel.join(', ')})`,
    );
  const g = convGeometry(
    [batch, ckk / kk, ...outputSize],
    kernel,
    options.stride,
    options.padding,
    options.dilation,
  );
  checkWindows('fold', g, columns);
  if (g.outHeight * g.outWidth !== windows)
    throw new ShapeError(
      `fold: given output_size=(${outputSize.join(', ')}), kernel_size=(${kernel.join(', ')}), ` +
        `expected size of input's dimension 2 to match the number of sliding blocks ` +
        `${g.outHeight} * ${g.outWidth} = ${g.outHeight * g.outWidth}, but got ${windows}`,
    );
  return scoped(() => foldColumns(reshape(transpose(columns, 1, 2), [batch * windows, ckk]), g));
}
