/** `torch.multinomial(input, numSamples, replacement = false)` over the engine's composition. */
import { Tensor } from '../../engine';
import { multinomial as multinomialOp } from '../../engine/ops/multinomial';
import { asBool, asInt, bindArgs, optional } from '../args';

const SIGNATURE = {
  name: 'torch.multinomial',
  params: ['input', 'numSamples', 'replacement'],
  keywordOnly: ['generator', 'out'],
} as const;

/** Category indices (int32) drawn from each row of non-negative weights: [S] or [B, S]. */
export function multinomial(...args: unknown[]): Tensor {
  const a = bindArgs(SIGNATURE, args);
  if (!(a.input instanceof Tensor)) {
    throw new TypeError('torch.multinomial: input must be a tensor of weights');
  }
  if (a.generator !== undefined && a.generator !== null) {
    throw new TypeError('torch.multinomial: a generator is not supported; use torch.manual_seed');
  }
  return multinomialOp(
    a.input,
    asInt(a.numSamples, 'torch.multinomial: num_samples'),
    optional(a.replacement, asBool, 'torch.multinomial: replacement', false),
  );
}
