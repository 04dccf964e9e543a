/**
 * Parameter-free layers: nn.Softmax, nn.Flatten, nn.Dropout and nn.Dropout2d (the element-wise
 * activations, nn.ReLU and the others, come from the table: table-activations.ts).
 */
import { asNumber } from '../../args';
import { dropout } from '../../ops/nn';
import { softmax } from '../../ops/nn';
import { flatten } from '../../ops/shape-ops';
import type { Tensor } from '../../tensor';
import { bind, boolArg, intArg, requireTensor } from '../layer-args';
import { libraryForward, Module } from '../module';

export class Softmax extends Module {
  declare readonly dim: number | null;

  constructor(dim?: number | null | { dim?: number | null });
  constructor(...args: unknown[]) {
    super();
    const a = bind({ name: 'Softmax', params: ['dim'] }, args);
    Object.defineProperty(this, 'dim', {
      value: a.dim === undefined || a.dim === null ? null : intArg(a.dim, 'Softmax: dim'),
      enumerable: false,
    });
  }

  override forward(input: Tensor): Tensor {
    const x = requireTensor(input, 'Softmax');
    // PyTorch's legacy choice when no dim is given.
    const dim = this.dim ?? (x.ndim === 0 || x.ndim === 1 || x.ndim === 3 ? 0 : 1);
    return softmax(x, dim);
  }

  override extraRepr(): string {
    return `dim=${this.dim === null ? 'None' : this.dim}`;
  }
}

export class Flatten extends Module {
  declare readonly startDim: number;
  declare readonly endDim: number;

  constructor(startDim?: number | { startDim?: number; endDim?: number }, endDim?: number);
  constructor(...args: unknown[]) {
    super();
    const a = bind({ name: 'Flatten', params: ['startDim', 'endDim'] }, args);
    Object.defineProperties(this, {
      startDim: { value: intArg(a.startDim, 'Flatten: startDim', 1), enumerable: false },
      endDim: { value: intArg(a.endDim, 'Flatten: endDim', -1), enumerable: false },
    });
  }

  override forward(input: Tensor): Tensor {
    return flatten(requireTensor(input, 'Flatten'), this.startDim, this.endDim);
  }

  override extraRepr(): string {
    return `start_dim=${this.startDim}, end_dim=${this.endDim}`;
  }
}

abstract class DropoutBase extends Module {
  declare readonly p: number;
  declare readonly inplace: boolean;

  protected constructor(name: string, args: unknown[]) {
    super();
    const a = bind({ name, params: ['p', 'inplace'] }, args);
    const p = a.p === undefined || a.p === null ? 0.5 : asNumber(a.p, `${name}: p`);
    if (!(p >= 0 && p <= 1))
      throw new RangeError(`dropout probability has to be between 0 and 1, but got ${p}`);
    Object.defineProperties(this, {
      p: { value: p, enumerable: false },
      inplace: { value: boolArg(a.inplace, `${name}: inplace`, false), enumerable: false },
    });
  }

  override extraRepr(): string {
    return `p=${this.p}, inplace=${this.inplace ? 'True' : 'False'}`;
  }
}

/** Zeroes elements with probability p while training, scaling the rest by 1/(1-p). */
export class Dropout extends DropoutBase {
  constructor(p?: number | { p?: number; inplace?: boolean }, inplace?: boolean);
  constructor(...args: unknown[]) {
    super('Dropout', args);
  }

  override forward(input: Tensor): Tensor {
    return dropout(requireTensor(input, 'Dropout'), this.p, this.training, false);
  }
}

/** Zeroes whole channels of [N, C, H, W] with probability p while training. */
export class Dropout2d extends DropoutBase {
  constructor(p?: number | { p?: number; inplace?: boolean }, inplace?: boolean);
  constructor(...args: unknown[]) {
    super('Dropout2d', args);
  }

  override forward(input: Tensor): Tensor {
    return dropout(requireTensor(input, 'Dropout2d'), this.p, this.training, true);
  }
}

libraryForward(Softmax, Flatten, Dropout, Dropout2d);
