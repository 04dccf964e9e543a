/** Losses as modules (callable, movable like PyTorch's): nn.CrossEntropyLoss and nn.MSELoss. */
import { crossEntropy, mseLoss, type Reduction } from '../../ops/nn';
import { formatShape, ShapeError } from '../../shape';
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

export interface CrossEntropyLossOptions {
  reduction?: Reduction;
  ignoreIndex?: number;
  labelSmoothing?: number;
}

/** Cross-entropy of logits [N, C] against class labels [N] (or class probabilities [N, C]). */
export class CrossEntropyLoss extends Module {
  declare readonly reduction: Reduction;

  constructor(options?: CrossEntropyLossOptions);
  constructor(...args: unknown[]) {
    super();
    const a = bind(
      {
        name: 'CrossEntropyLoss',
        params: ['weight', 'sizeAverage', 'ignoreIndex', 'reduce', 'reduction', 'labelSmoothing'],
      },
      args,
    );
    unsupported(a, 'CrossEntropyLoss', {
      weight: null,
      sizeAverage: null,
      reduce: null,
      ignoreIndex: -100,
      labelSmoothing: 0,
    });
    Object.defineProperty(this, 'reduction', {
      value: reductionArg(a.reduction, 'CrossEntropyLoss'),
      enumerable: false,
    });
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    const x = requireTensor(input, 'CrossEntropyLoss');
    const y = requireTensor(target, 'CrossEntropyLoss');
    if (
      x.ndim === 2 &&
      y.ndim === 2 &&
      y.shape[1] === 1 &&
      y.shape[0] === x.shape[0] &&
      y.dtype === 'int32'
    ) {
      throw new ShapeError(
        `CrossEntropyLoss: labels have shape ${formatShape(y.shape)}; expected ${formatShape([x.shape[0]])} ` +
          `(one class index per row of the ${formatShape(x.shape)} logits). Use labels.squeeze(1) or labels.view(-1).`,
      );
    }
    try {
      return crossEntropy(x, y, this.reduction);
    } catch (error) {
      if (error instanceof Error && !error.message.startsWith('CrossEntropyLoss'))
        error.message = `CrossEntropyLoss: ${error.message}`;
      throw error;
    }
  }
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

libraryForward(CrossEntropyLoss, MSELoss);
