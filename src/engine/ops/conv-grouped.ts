/**
 * Grouped and transposed convolutions as products around the window columns (ops/unfold.ts):
 *
 * - grouped (groups > 1, depthwise when groups = C): columns [N, P, G, C/G·kk] times each group's
 *   weight [G, C/G·kk, O/G], one batched product over (image, group) for every group at once;
 * - transposed: the adjoint of a convolution, i.e. its input gradient: x's pixels times the weight
 *   [G, Cin/G, Cout/G·kk] give the columns, which col2im folds back onto the (larger) output.
 *
 * Every step is an op with its gradient, so both backends and autograd come with them.
 */
import type { Conv2dGeometry } from '../backend';
import type { Tensor } from '../tensor';
import { add } from './elementwise';
import { matmul } from './matmul';
import { permute, reshape, transpose } from './shape-ops';
import { foldColumns, unfoldColumns } from './unfold';

/** x [N, C, H, W] ⊛ weight [O, C/G, kH, kW] in G groups + bias [O] → [N, O, oH, oW]. */
export function convolveGrouped(
  x: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  g: Conv2dGeometry,
  groups: number,
): Tensor {
  const outChannels = weight.shape[0];
  const pixels = g.outHeight * g.outWidth;
  const perGroup = (g.inChannels / groups) * g.kernelHeight * g.kernelWidth;
  const columns = reshape(unfoldColumns(x, g), [g.batch, pixels, groups, perGroup]);
  // [N, G, P, C/G·kk] @ [G, C/G·kk, O/G] → [N, G, P, O/G]
  const w = transpose(reshape(weight, [groups, outChannels / groups, perGroup]), 1, 2);
  const product = matmul(permute(columns, [0, 2, 1, 3]), w);
  const out = reshape(permute(product, [0, 1, 3, 2]), [
    g.batch,
    outChannels,
    g.outHeight,
    g.outWidth,
  ]);
  return bias ? add(out, reshape(bias, [outChannels, 1, 1])) : out;
}

/**
 * x [N, Cin, H, W] and weight [Cin, Cout/G, kH, kW] → [N, Cout, oH, oW] + bias: the transposed
 * convolution, where `g` is the geometry of the convolution it is the adjoint of (its input is
 * this output [N, Cout, oH, oW], its output this input's H × W).
 */
export function convolveTransposed(
  x: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  g: Conv2dGeometry,
  groups: number,
): Tensor {
  const inChannels = x.shape[1];
  const pixels = g.outHeight * g.outWidth;
  const perGroup = (g.inChannels / groups) * g.kernelHeight * g.kernelWidth;
  // [N, G, P, Cin/G] @ [G, Cin/G, Cout/G·kk] → [N, G, P, Cout/G·kk] → columns [N·P, Cout·kk]
  const pixelsFirst = permute(
    reshape(x, [g.batch, groups, inChannels / groups, pixels]),
    [0, 1, 3, 2],
  );
  const w = reshape(weight, [groups, inChannels / groups, perGroup]);
  const columns = reshape(permute(matmul(pixelsFirst, w), [0, 2, 1, 3]), [
    g.batch * pixels,
    groups * perGroup,
  ]);
  const out = foldColumns(columns, g);
  return bias ? add(out, reshape(bias, [g.inChannels, 1, 1])) : out;
}
