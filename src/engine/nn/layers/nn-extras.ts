/**
 * Small modules over ops/nn-extras.ts and shape ops: nn.PReLU (a learned negative slope),
 * nn.CosineSimilarity and nn.Unflatten, with PyTorch's arguments and reprs.
 */
import { describe } from '../../args';
import { full } from '../../ops/creation';
import { cosineSimilarity, prelu } from '../../ops/nn-extras';
import { reshape } from '../../ops/shape-ops';
import { normalizeDim, ShapeError, formatShape } from '../../shape';
import type { Tensor } from '../../tensor';
import { bind, deviceArg, intArg, requireTensor } from '../layer-args';
import { numberArg } from './losses';
import { libraryForward, Module } from '../module';
import { Parameter } from '../parameter';

/** max(0, x) + a·min(0, x) with a learned `a`: one (num_parameters=1) or one per channel. */
export class PReLU extends Module {
  declare weight: Parameter;
  declare readonly numParameters: number;

  constructor(numParameters?: number | { numParameters?: number; init?: number }, init?: number);
  constructor(...args: unknown[]) {
    super();
    const a = bind({ name: 'PReLU', params: ['numParameters', 'init', 'device', 'dtype'] }, args);
    const n = intArg(a.numParameters, 'PReLU: num_parameters', 1);
    if (n < 1) throw new RangeError(`PReLU: num_parameters must be positive, got ${n}`);
    Object.defineProperty(this, 'numParameters', { value: n, enumerable: false });
    const value = numberArg(a.init, 'PReLU: init', 0.25);
    this.weight = new Parameter(full([n], value, { device: deviceArg(a.device) }));
  }

  override forward(input: Tensor): Tensor {
    return prelu(requireTensor(input, 'PReLU'), this.weight);
  }

  override extraRepr(): string {
    return `num_parameters=${this.numParameters}`;
  }
}

/** Cosine similarity of two inputs along `dim` (PyTorch's repr shows no arguments). */
export class CosineSimilarity extends Module {
  declare readonly dim: number;
  declare readonly eps: number;

  constructor(dim?: number | { dim?: number; eps?: number }, eps?: number);
  constructor(...args: unknown[]) {
    super();
    const a = bind({ name: 'CosineSimilarity', params: ['dim', 'eps'] }, args);
    Object.defineProperties(this, {
      dim: { value: intArg(a.dim, 'CosineSimilarity: dim', 1), enumerable: false },
      eps: { value: numberArg(a.eps, 'CosineSimilarity: eps', 1e-8), enumerable: false },
    });
  }

  override forward(x1: Tensor, x2: Tensor): Tensor {
    return cosineSimilarity(
      requireTensor(x1, 'CosineSimilarity'),
      requireTensor(x2, 'CosineSimilarity'),
      this.dim,
      this.eps,
    );
  }
}

/** Splits dimension `dim` into `unflattened_size` (one entry may be -1). */
export class Unflatten extends Module {
  declare readonly dim: number;
  declare readonly unflattenedSize: readonly number[];

  constructor(dim: number | { dim: number; unflattenedSize: number[] }, unflattenedSize?: number[]);
  constructor(...args: unknown[]) {
    super();
    const a = bind({ name: 'Unflatten', params: ['dim', 'unflattenedSize'] }, args);
    const sizes = a.unflattenedSize;
    if (!Array.isArray(sizes) || sizes.length === 0)
      throw new TypeError(
        `Unflatten: unflattened_size must be a tuple of ints, got ${describe(sizes)}`,
      );
    Object.defineProperties(this, {
      dim: { value: intArg(a.dim, 'Unflatten: dim'), enumerable: false },
      unflattenedSize: {
        value: sizes.map((v, i) => intArg(v, `Unflatten: unflattened_size[${i}]`)),
        enumerable: false,
      },
    });
  }

  override forward(input: Tensor): Tensor {
    const x = requireTensor(input, 'Unflatten');
    const d = normalizeDim(this.dim, x.ndim, 'Unflatten');
    const sizes = this.unflattenedSize;
    const known = sizes.filter((s) => s !== -1).reduce((p, s) => p * s, 1);
    const fits = sizes.includes(-1) ? x.shape[d] % known === 0 : known === x.shape[d];
    if (!fits)
      throw new ShapeError(
        `Unflatten: unflattened_size ${formatShape(sizes)} does not match dimension ${d} of ` +
          `size ${x.shape[d]} in input ${formatShape(x.shape)}`,
      );
    return reshape(x, [...x.shape.slice(0, d), ...sizes, ...x.shape.slice(d + 1)]);
  }

  /** PyTorch's, the size shown as a Python tuple. */
  override extraRepr(): string {
    const sizes = this.unflattenedSize;
    const tuple = sizes.length === 1 ? `(${sizes[0]},)` : `(${sizes.join(', ')})`;
    return `dim=${this.dim}, unflattened_size=${tuple}`;
  }
}

libraryForward(PReLU, CosineSimilarity, Unflatten);
