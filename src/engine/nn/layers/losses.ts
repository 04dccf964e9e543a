/**
 * PyTorch's losses as modules, over ops/losses.ts: nn.NLLLoss, nn.CrossEntropyLoss, nn.BCELoss,
 * nn.BCEWithLogitsLoss, nn.L1Loss, nn.SmoothL1Loss, nn.HuberLoss and nn.KLDivLoss, with PyTorch's
 * arguments. A class weight (and BCEWithLogitsLoss's pos_weight) is a buffer, as PyTorch's, so it
 * moves with `.to()` and is saved in the state dict. Reprs are PyTorch's: the bare class name.
 */
import { describe } from '../../args';
import {
  binaryCrossEntropy,
  binaryCrossEntropyWithLogits,
  crossEntropyLoss,
  huberLoss,
  klDiv,
  l1Loss,
  nllLoss,
  smoothL1Loss,
  type KlReduction,
} from '../../ops/losses';
import type { Reduction } from '../../ops/nn';
import { Tensor } from '../../tensor';
import { bind, boolArg, requireTensor, unsupported, type BoundArgs } from '../layer-args';
import { libraryForward, Module } from '../module';

/** `reduction`, checked against the loss's choices ('batchmean' is KLDivLoss's). */
export function reductionArg<R extends string = Reduction>(
  value: unknown,
  loss: string,
  choices: readonly R[] = ['mean', 'sum', 'none'] as unknown as R[],
): R {
  if (value === undefined || value === null) return 'mean' as R;
  if (typeof value === 'string' && (choices as readonly string[]).includes(value))
    return value as R;
  throw new TypeError(
    `${loss}: reduction must be one of ${choices.map((c) => `'${c}'`).join(', ')}, got ${describe(value)}`,
  );
}

/** A Tensor argument that may be absent (weight=None). */
export function optionalTensor(value: unknown, what: string): Tensor | null {
  if (value === undefined || value === null) return null;
  if (value instanceof Tensor) return value;
  throw new TypeError(`${what} must be a Tensor or None, got ${describe(value)}`);
}

/** A number argument with its default. */
export function numberArg(value: unknown, what: string, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'number') return value;
  throw new TypeError(`${what} must be a number, got ${describe(value)}`);
}

/** The arguments every loss takes: the deprecated size_average/reduce (refused) and reduction. */
abstract class Loss<R extends string = Reduction> extends Module {
  declare readonly reduction: R;
  declare private readonly lossName: string;

  protected constructor(
    name: string,
    params: readonly string[],
    args: unknown[],
    choices?: readonly R[],
  ) {
    super();
    Object.defineProperty(this, 'lossName', { value: name, enumerable: false });
    const a = bind({ name, params: [...params] }, args);
    unsupported(a, name, { sizeAverage: null, reduce: null });
    Object.defineProperty(this, 'reduction', {
      value: reductionArg<R>(a.reduction, name, choices),
      enumerable: false,
    });
    this.init(a, name);
  }

  /** Reads the loss's own arguments. */
  protected abstract init(a: BoundArgs, name: string): void;

  protected pair(input: unknown, target: unknown): [Tensor, Tensor] {
    return [requireTensor(input, this.lossName), requireTensor(target, this.lossName)];
  }

  /** The class weight buffer (null when none was given). */
  protected buffer(name: string): Tensor | null {
    return (this as unknown as Record<string, Tensor | null>)[name] ?? null;
  }
}

const WEIGHTED = ['weight', 'sizeAverage', 'ignoreIndex', 'reduce', 'reduction'];

export class NLLLoss extends Loss {
  declare readonly ignoreIndex: number;

  constructor(options?: { weight?: Tensor; ignoreIndex?: number; reduction?: Reduction });
  constructor(...args: unknown[]) {
    super('NLLLoss', WEIGHTED, args);
  }

  protected init(a: BoundArgs, name: string): void {
    this.registerBuffer('weight', optionalTensor(a.weight, `${name}: weight`));
    Object.defineProperty(this, 'ignoreIndex', {
      value: numberArg(a.ignoreIndex, `${name}: ignore_index`, -100),
      enumerable: false,
    });
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    const [x, t] = this.pair(input, target);
    return nllLoss(x, t, {
      weight: this.buffer('weight'),
      ignoreIndex: this.ignoreIndex,
      reduction: this.reduction,
    });
  }
}

export interface CrossEntropyLossOptions {
  weight?: Tensor;
  reduction?: Reduction;
  ignoreIndex?: number;
  labelSmoothing?: number;
}

/** Cross-entropy of logits [N, C, …] against class labels [N, …] or class probabilities. */
export class CrossEntropyLoss extends Loss {
  declare readonly ignoreIndex: number;
  declare readonly labelSmoothing: number;

  constructor(options?: CrossEntropyLossOptions);
  constructor(...args: unknown[]) {
    super('CrossEntropyLoss', [...WEIGHTED, 'labelSmoothing'], args);
  }

  protected init(a: BoundArgs, name: string): void {
    this.registerBuffer('weight', optionalTensor(a.weight, `${name}: weight`));
    Object.defineProperties(this, {
      ignoreIndex: {
        value: numberArg(a.ignoreIndex, `${name}: ignore_index`, -100),
        enumerable: false,
      },
      labelSmoothing: {
        value: numberArg(a.labelSmoothing, `${name}: label_smoothing`, 0),
        enumerable: false,
      },
    });
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    const [x, t] = this.pair(input, target);
    return crossEntropyLoss(x, t, {
      weight: this.buffer('weight'),
      ignoreIndex: this.ignoreIndex,
      labelSmoothing: this.labelSmoothing,
      reduction: this.reduction,
    });
  }
}

export class BCELoss extends Loss {
  constructor(options?: { weight?: Tensor; reduction?: Reduction });
  constructor(...args: unknown[]) {
    super('BCELoss', ['weight', 'sizeAverage', 'reduce', 'reduction'], args);
  }

  protected init(a: BoundArgs, name: string): void {
    this.registerBuffer('weight', optionalTensor(a.weight, `${name}: weight`));
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    const [x, t] = this.pair(input, target);
    return binaryCrossEntropy(x, t, this.buffer('weight'), this.reduction);
  }
}

export class BCEWithLogitsLoss extends Loss {
  constructor(options?: { weight?: Tensor; reduction?: Reduction; posWeight?: Tensor });
  constructor(...args: unknown[]) {
    super('BCEWithLogitsLoss', ['weight', 'sizeAverage', 'reduce', 'reduction', 'posWeight'], args);
  }

  protected init(a: BoundArgs, name: string): void {
    this.registerBuffer('weight', optionalTensor(a.weight, `${name}: weight`));
    this.registerBuffer('pos_weight', optionalTensor(a.posWeight, `${name}: pos_weight`));
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    const [x, t] = this.pair(input, target);
    return binaryCrossEntropyWithLogits(
      x,
      t,
      this.buffer('weight'),
      this.buffer('pos_weight'),
      this.reduction,
    );
  }
}

/** Mean absolute error (inputs broadcast, as in PyTorch). */
export class L1Loss extends Loss {
  constructor(options?: { reduction?: Reduction });
  constructor(...args: unknown[]) {
    super('L1Loss', ['sizeAverage', 'reduce', 'reduction'], args);
  }

  protected init(): void {}

  override forward(input: Tensor, target: Tensor): Tensor {
    return l1Loss(...this.pair(input, target), this.reduction);
  }
}

export class SmoothL1Loss extends Loss {
  declare readonly beta: number;

  constructor(options?: { reduction?: Reduction; beta?: number });
  constructor(...args: unknown[]) {
    super('SmoothL1Loss', ['sizeAverage', 'reduce', 'reduction', 'beta'], args);
  }

  protected init(a: BoundArgs, name: string): void {
    const beta = numberArg(a.beta, `${name}: beta`, 1);
    Object.defineProperty(this, 'beta', { value: beta, enumerable: false });
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    return smoothL1Loss(...this.pair(input, target), this.reduction, this.beta);
  }
}

export class HuberLoss extends Loss {
  declare readonly delta: number;

  constructor(options?: { reduction?: Reduction; delta?: number });
  constructor(...args: unknown[]) {
    super('HuberLoss', ['reduction', 'delta'], args);
  }

  protected init(a: BoundArgs, name: string): void {
    const delta = numberArg(a.delta, `${name}: delta`, 1);
    Object.defineProperty(this, 'delta', { value: delta, enumerable: false });
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    return huberLoss(...this.pair(input, target), this.reduction, this.delta);
  }
}

const KL_REDUCTIONS: readonly KlReduction[] = ['mean', 'batchmean', 'sum', 'none'];

export class KLDivLoss extends Loss<KlReduction> {
  declare readonly logTarget: boolean;

  constructor(options?: { reduction?: KlReduction; logTarget?: boolean });
  constructor(...args: unknown[]) {
    super('KLDivLoss', ['sizeAverage', 'reduce', 'reduction', 'logTarget'], args, KL_REDUCTIONS);
  }

  protected init(a: BoundArgs, name: string): void {
    const logTarget = boolArg(a.logTarget, `${name}: log_target`, false);
    Object.defineProperty(this, 'logTarget', { value: logTarget, enumerable: false });
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    return klDiv(...this.pair(input, target), this.reduction, this.logTarget);
  }
}

libraryForward(
  NLLLoss,
  CrossEntropyLoss,
  BCELoss,
  BCEWithLogitsLoss,
  L1Loss,
  SmoothL1Loss,
  HuberLoss,
  KLDivLoss,
);
