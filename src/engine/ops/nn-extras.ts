/**
 * torch.nn.functional's small helpers, composed of engine ops (so they run on every backend, and
 * autograd derives their gradients): prelu, one_hot, normalize and cosine_similarity.
 */
import { broadcastShapes, formatShape, normalizeDim, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { expand } from './broadcast';
import { arange } from './creation';
import { abs, add, cast, div, eq, gt, maximum, mul, pow, sqrt, square, sub } from './elementwise';
import { checkIndexRange } from './labels';
import { amax, sum } from './reduce';
import { reshape, unsqueeze } from './shape-ops';
import { inputsDevice, requireFloat, scoped } from './support';

/**
 * max(0, x) + weight·min(0, x), weight [1] or one per channel (dim 1; dim 0 of a 1-D input).
 * The input's gradient at 0 is the weight's, as PyTorch's.
 */
export function prelu(x: Tensor, weight: Tensor): Tensor {
  inputsDevice('prelu', x, weight);
  requireFloat('prelu', x);
  const channels = weight.numel();
  const channelDim = x.ndim >= 2 ? 1 : 0;
  if (weight.ndim > 1 || (channels !== 1 && (x.ndim === 0 || x.shape[channelDim] !== channels)))
    throw new ShapeError(
      `prelu: weight of shape ${formatShape(weight.shape)} does not match input ` +
        `${formatShape(x.shape)} (expected 1 or the ${x.shape[channelDim]} channels)`,
    );
  return scoped(() => {
    const trailing = x.ndim - channelDim - 1;
    const w =
      channels === 1 || x.ndim === 0
        ? reshape(weight, [])
        : reshape(weight, [channels, ...Array<number>(Math.max(trailing, 0)).fill(1)]);
    const positive = cast(gt(x, 0), 'float32');
    return mul(x, add(positive, mul(w, sub(1, positive))));
  });
}

/**
 * [..., numClasses] with 1 at each value's class, 0 elsewhere (int32, the engine's int64).
 * numClasses = -1 takes the largest value + 1, which needs the values: on a device that cannot
 * read them without waiting, give it (Python's F.one_hot reads it for you).
 */
export function oneHot(x: Tensor, numClasses = -1): Tensor {
  const op = 'one_hot';
  if (x.dtype !== 'int32')
    throw new TypeError(`${op} is only applicable to index tensors, got ${x.dtype}`);
  let classes = numClasses;
  if (classes < 0) {
    if (x.numel() === 0)
      throw new RangeError(`${op}: can not infer total number of classes from empty tensor`);
    const reader = x.deviceObject.capability('syncRead');
    const top = scoped(() => reshape(amax(x), [1]));
    const values = reader?.readSync(top.res.storage.buffer, 'int32', top.offset, 1) ?? null;
    top.dispose();
    if (values === null)
      throw new TypeError(
        `${op}: num_classes must be given for a tensor on ${x.device} (its values are not readable without waiting)`,
      );
    classes = values[0] + 1;
  }
  checkIndexRange(op, 'class value', x, classes, 'classes');
  return scoped(() => {
    const columns = arange(0, classes, 1, { device: x.deviceObject, dtype: 'int32' });
    return eq(unsqueeze(x, -1), columns);
  });
}

/** The p-norm along dim, kept. */
function pNorm(x: Tensor, p: number, dim: number): Tensor {
  if (p === 2) return sqrt(sum(square(x), dim, true));
  if (p === 1) return sum(abs(x), dim, true);
  if (p === Infinity) return amax(abs(x), dim, true);
  return pow(sum(pow(abs(x), p), dim, true), 1 / p);
}

/** x / max(‖x‖_p along dim, eps): PyTorch's F.normalize. */
export function normalize(x: Tensor, p = 2, dim = 1, eps = 1e-12): Tensor {
  requireFloat('normalize', x);
  const d = normalizeDim(dim, x.ndim, 'normalize');
  return scoped(() => div(x, maximum(pNorm(x, p, d), eps)));
}

/** Σ x1·x2 / sqrt(max(‖x1‖²·‖x2‖², eps²)) along dim (inputs broadcast; dim is removed). */
export function cosineSimilarity(x1: Tensor, x2: Tensor, dim = 1, eps = 1e-8): Tensor {
  inputsDevice('cosine_similarity', x1, x2);
  requireFloat('cosine_similarity', x1, 'x1');
  requireFloat('cosine_similarity', x2, 'x2');
  const shape = broadcastShapes('cosine_similarity', x1.shape, x2.shape);
  const d = normalizeDim(dim, shape.length, 'cosine_similarity');
  return scoped(() => {
    const a = expand(x1, shape);
    const b = expand(x2, shape);
    const dot = sum(mul(a, b), d);
    const n1 = sum(square(a), d);
    const n2 = sum(square(b), d);
    return div(dot, sqrt(maximum(mul(n1, n2), eps * eps)));
  });
}
