/**
 * `torch.randint(high, size)` / `torch.randint(low, high, size, { device })`: uniform integers in
 * [low, high), as Python's torch.randint (torch/__init__.py) draws them — the floor of a scaled
 * uniform draw of the engine's seeded generator (repeatable, though not PyTorch's own stream).
 */
import { defaultDevice, ops, type Tensor } from '../../engine';
import { asInt, asShape, bindArgs, deviceArg, dtypeArg } from '../args';

const SIGNATURE = {
  name: 'torch.randint',
  params: ['low', 'high', 'size'],
  keywordOnly: ['generator', 'dtype', 'device', 'requiresGrad', 'layout', 'out'],
} as const;

export function randint(...args: unknown[]): Tensor {
  const a = bindArgs(SIGNATURE, args);
  // randint(high, size): the first two arguments are high and size.
  const [lowArg, highArg, sizeArg] =
    a.size === undefined ? [0, a.low, a.high] : [a.low, a.high, a.size];
  const low = asInt(lowArg, 'torch.randint: low');
  const high = asInt(highArg, 'torch.randint: high');
  if (high <= low) {
    throw new RangeError(`torch.randint: expects low < high, got low=${low}, high=${high}`);
  }
  const size = asShape(sizeArg, 'torch.randint: size');
  const device = deviceArg(a.device, defaultDevice('torch'));
  const dtype = dtypeArg(a.dtype) ?? 'int32';
  return ops.scoped(() => {
    const u = ops.rand(size, { device });
    return ops.cast(ops.floor(ops.add(ops.mul(u, high - low), low)), dtype);
  });
}
