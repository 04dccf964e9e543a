/**
 * Reductions composed of the engine's reductions and element-wise ops: variance and standard
 * deviation (with PyTorch's Bessel correction), logsumexp (shifted by the maximum, so large
 * values do not overflow), vector norms, and isclose. Gradients come from the ops they use.
 */
import { noGrad, withGrad } from '../autograd';
import type { Tensor } from '../tensor';
import {
  abs,
  add,
  binaryOps,
  cast,
  div,
  eq,
  exp,
  le,
  log,
  maximum,
  mul,
  ne,
  pow,
} from './elementwise';
import { sqrt, square, sub } from './elementwise';
import { amax, amin, mean, sum } from './reduce';
import { plan } from './reduction-kernel';
import { reshape } from './shape-ops';
import { where } from './masks';
import { scoped } from './support';

type Dims = number | readonly number[] | undefined;

/** The largest finite float32 (Number.MAX_VALUE would round to Infinity in a float32 kernel). */
const FLOAT32_MAX = 3.4028234663852886e38;

/** PyTorch's messages: var and std's names neither op (it is shared), the others name theirs. */
function requireFloating(op: string | null, x: Tensor, message: string): void {
  if (x.dtype !== 'float32') throw new Error(op === null ? message : `${op}: ${message}`);
}

/** Variance over dims (all when omitted), divided by count - correction (1: Bessel's). */
export function variance(x: Tensor, dims: Dims, correction = 1, keepdim = false): Tensor {
  requireFloating(null, x, 'std and var only support floating point and complex dtypes');
  return scoped(() => {
    const p = plan('var', x, dims);
    const count = p.dims.reduce((n, d) => n * x.shape[d], 1);
    const deviation = sub(x, mean(x, dims, true));
    return div(sum(square(deviation), dims, keepdim), count - correction);
  });
}

export function std(x: Tensor, dims: Dims, correction = 1, keepdim = false): Tensor {
  requireFloating(null, x, 'std and var only support floating point and complex dtypes');
  return scoped(() => sqrt(variance(x, dims, correction, keepdim)));
}

/** log(sum(exp(x))) over dims, computed as m + log(sum(exp(x - m))) with m the (finite) max. */
export function logsumexp(x: Tensor, dims: Dims, keepdim = false): Tensor {
  requireFloating('logsumexp', x, 'expected a floating point input');
  return scoped(() => {
    const p = plan('logsumexp', x, dims);
    const peak = amax(x.detach(), dims, true);
    // An all -inf (or +inf) slice: shift by 0 instead, so x - m is not inf - inf.
    const shift = binaryOps.keepWhere(peak, le(abs(peak), FLOAT32_MAX));
    const shifted = add(log(sum(exp(sub(x, shift)), dims, true)), shift);
    // An all -inf slice is -inf exactly: log(0) is not reliably -inf in WGSL (SwiftShader: -88).
    const out = where(eq(peak, -Infinity), -Infinity, shifted);
    return keepdim ? out : reshape(out, p.kept);
  });
}

/**
 * The vector p-norm over dims (all when omitted): p = 2 or 'fro' (the Frobenius norm is the
 * 2-norm of the entries), 1, Infinity (max |x|), -Infinity (min |x|), 0 (count of nonzeros), or
 * any other number: (Σ|x|^p)^(1/p).
 */
export function norm(x: Tensor, p: number | 'fro', dims: Dims, keepdim = false): Tensor {
  requireFloating('norm', x, `expected a floating point input, got ${x.dtype}`);
  return scoped(() => {
    if (p === 'fro' || p === 2) return euclidean(x, dims, keepdim);
    if (p === 1) return sum(abs(x), dims, keepdim);
    if (p === Infinity) return amax(abs(x), dims, keepdim);
    if (p === -Infinity) return amin(abs(x), dims, keepdim);
    if (p === 0) return sum(cast(ne(x, 0), 'float32'), dims, keepdim);
    return pow(sum(pow(abs(x), p), dims, keepdim), 1 / p);
  });
}

/**
 * The 2-norm, with PyTorch's gradient x / ‖x‖ that is 0 (not NaN) where the norm is 0 (the
 * composition sqrt(Σx²) would give 0 · ∞ there).
 */
function euclidean(x: Tensor, dims: Dims, keepdim: boolean): Tensor {
  const p = plan('norm', x, dims);
  const out = noGrad(() => sqrt(sum(square(x), dims, keepdim)));
  return withGrad('NormBackward1', [x], out, (save) => {
    const xs = save(x);
    const norms = save(out);
    return (g) => {
      const n = reshape(norms, p.keepShape);
      const scaled = div(mul(xs, reshape(g, p.keepShape)), n);
      return [binaryOps.keepWhere(scaled, ne(n, 0))];
    };
  });
}

/**
 * torch.isclose: |a - b| <= atol + rtol·|b| element-wise (equal values, infinities included,
 * are close; NaNs only with equalNan), as an int32 0/1 mask.
 */
export function isclose(
  a: Tensor,
  b: Tensor | number,
  rtol = 1e-5,
  atol = 1e-8,
  equalNan = false,
): Tensor {
  return scoped(() => {
    const tolerance =
      typeof b === 'number' ? Math.abs(b) * rtol + atol : add(mul(abs(b), rtol), atol);
    const within = le(abs(sub(a, b)), tolerance);
    let close = maximum(within, eq(a, b));
    if (equalNan)
      close = maximum(close, mul(ne(a, a), typeof b === 'number' ? +(b !== b) : ne(b, b)));
    return close;
  });
}
