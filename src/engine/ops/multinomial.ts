/**
 * torch.multinomial: indices drawn from the categorical distributions in the rows of a weight
 * tensor, composed of engine ops (so it runs on every backend; it has no gradient).
 */
import { formatShape, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { rand } from './creation';
import { add, cast, le, log, minimum, mul, neg } from './elementwise';
import { sum } from './reduce';
import { cumsum } from './scan';
import { narrow, reshape, unsqueeze } from './shape-ops';
import { topk } from './sort';
import { inputsDevice, requireFloat, scoped } from './support';

/**
 * `numSamples` indices per row of `weights` ([V] or [B, V]; non-negative, not necessarily
 * normalised), int32, [numSamples] or [B, numSamples].
 *
 * With replacement: the inverse of each row's cumulative sum at u·total (u uniform), found by
 * counting the cumulative sums below it, so a category of weight 0 is never drawn. Without
 * replacement: the Gumbel top-k (Efraimidis–Spirakis): the k largest log w − log(−log u), which
 * draws k distinct categories exactly as successive draws that remove each pick. The weights are
 * not read back to check them (that would wait for the GPU); PyTorch's value errors are not given.
 */
export function multinomial(weights: Tensor, numSamples: number, replacement = false): Tensor {
  const device = inputsDevice('multinomial', weights);
  requireFloat('multinomial', weights, 'weights tensor');
  if (weights.ndim !== 1 && weights.ndim !== 2) {
    throw new ShapeError(
      `multinomial: prob_dist must be 1 or 2 dim, got shape ${formatShape(weights.shape)}`,
    );
  }
  const categories = weights.shape[weights.ndim - 1];
  // Plain Errors for the counts: Python shows them as RuntimeError, as PyTorch raises them.
  if (!Number.isInteger(numSamples) || numSamples <= 0) {
    throw new Error(`multinomial: cannot sample n_sample <= 0 samples (got ${numSamples})`);
  }
  if (categories === 0) throw new ShapeError('multinomial: number of categories cannot be zero');
  if (!replacement && numSamples > categories) {
    throw new Error(
      `multinomial: cannot sample n_sample > prob_dist.size(-1) samples without replacement ` +
        `(${numSamples} > ${categories})`,
    );
  }
  return scoped(() => {
    const rows = weights.ndim === 1 ? unsqueeze(weights, 0) : weights; // [B, V]
    const batch = rows.shape[0];
    let picked: Tensor;
    if (replacement || numSamples === 1) {
      const cdf = cumsum(rows, 1); // [B, V]
      const total = narrow(cdf, 1, categories - 1, 1); // [B, 1]
      const u = mul(rand([batch, numSamples], { device }), total); // [B, S] in [0, total)
      // How many cumulative sums are ≤ u: the index of the category whose interval holds u (a
      // zero-weight category has an empty interval). Rounding can put u at the very top, so the
      // count is capped at the last category.
      const atOrBelow = cast(le(unsqueeze(cdf, 1), unsqueeze(u, 2)), 'float32'); // [B, S, V]
      const index = minimum(sum(atOrBelow, 2), categories - 1);
      picked = cast(index, 'int32');
    } else {
      const u = rand([batch, categories], { device });
      const gumbel = neg(log(neg(log(add(mul(u, 1 - 2e-7), 1e-7)))));
      picked = cast(topk(add(log(rows), gumbel), numSamples, 1)[1], 'int32');
    }
    return weights.ndim === 1 ? reshape(picked, [numSamples]) : picked;
  });
}
