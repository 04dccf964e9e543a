/** nn.MSELoss (the other losses, nn.CrossEntropyLoss among them, are in losses.ts). */
import { mseLoss, type Reduction } from '../../ops/nn';
import type { Tensor } from '../../tensor';
import { bind, requireTensor, unsupported } from '../layer-args';
import { libraryForward, Module } from '../module';

function reductionArg(value: unknown, loss: string): Reduction {
  if (value === undefined || value === null) return 'mean';
  if (value === 'mean' || value === 'sum' || value === 'none') return value;
  throw new TypeError(
    `${loss}: reduction must be 'mean', 'sum' or 'none', got ${JSON.stringify(value)}`,
  );
}

/** Mean squared error (inputs broadcast, as in PyTorch). */
export class MSELoss extends Module {
  declare readonly reduction: Reduction;

  constructor(options?: { reduction?: Reduction });
  constructor(...args: unknown[]) {
    super();
    const a = bind({ name: 'MSELoss', params: ['sizeAverage', 'reduce', 'reduction'] }, args);
    unsupported(a, 'MSELoss', { sizeAverage: null, reduce: null });
    Object.defineProperty(this, 'reduction', {
      value: reductionArg(a.reduction, 'MSELoss'),
      enumerable: false,
    });
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    return mseLoss(
      requireTensor(input, 'MSELoss'),
      requireTensor(target, 'MSELoss'),
      this.reduction,
    );
  }
}

libraryForward(MSELoss);
