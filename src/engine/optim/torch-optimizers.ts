/**
 * torch.optim's classes over the optimizer core: `new SGD(params, lr, momentum, …)` or
 * `new Adam(params, { lr: 0.01 })`, with PyTorch's positional order and defaults.
 */
import { bindArgs, type BoundArgs } from '../args';
import { Optimizer, type ParamsInput, type UpdateRule } from './optimizer';
import { torchAdam, torchAdamW, torchNAdam } from './rules/torch-adam';
import { torchAdagrad, torchRmsprop } from './rules/torch-rmsprop';
import { torchSgd } from './rules/torch-sgd';

/** Accepted for compatibility; they change how PyTorch schedules kernels, not the result. */
const IGNORED = ['foreach', 'differentiable', 'fused', 'capturable'];

function construct(
  rule: UpdateRule,
  params: readonly string[],
  keywordOnly: readonly string[],
  args: unknown[],
): [ParamsInput, BoundArgs] {
  const a = bindArgs(
    { name: rule.name, params: ['params', ...params], keywordOnly: [...keywordOnly, ...IGNORED] },
    args,
  );
  const input = a.params;
  if (
    input === undefined ||
    input === null ||
    typeof input !== 'object' ||
    !(Symbol.iterator in input)
  ) {
    throw new TypeError(
      `${rule.name}: params argument given to the optimizer should be a list of tensors (e.g. net.parameters())`,
    );
  }
  const list = [...(input as Iterable<unknown>)];
  if (list.length === 0) throw new Error('optimizer got an empty parameter list');
  const hyper: BoundArgs = {};
  for (const key of [...params, ...keywordOnly]) if (a[key] !== undefined) hyper[key] = a[key];
  return [list as ParamsInput, hyper];
}

export interface SGDOptions {
  lr?: number;
  momentum?: number;
  dampening?: number;
  weightDecay?: number;
  nesterov?: boolean;
  maximize?: boolean;
}

export class SGD extends Optimizer {
  constructor(
    params: ParamsInput,
    lr?: number | SGDOptions,
    momentum?: number | SGDOptions,
    ...rest: unknown[]
  );
  constructor(...args: unknown[]) {
    const [params, hyper] = construct(
      torchSgd,
      ['lr', 'momentum', 'dampening', 'weightDecay', 'nesterov'],
      ['maximize'],
      args,
    );
    super(params, torchSgd, hyper);
  }
}

export interface AdamOptions {
  lr?: number;
  betas?: [number, number];
  eps?: number;
  weightDecay?: number;
  amsgrad?: boolean;
  maximize?: boolean;
}

export class Adam extends Optimizer {
  constructor(params: ParamsInput, lr?: number | AdamOptions, ...rest: unknown[]);
  constructor(...args: unknown[]) {
    const [params, hyper] = construct(
      torchAdam,
      ['lr', 'betas', 'eps', 'weightDecay', 'amsgrad'],
      ['maximize'],
      args,
    );
    super(params, torchAdam, hyper);
  }
}

export interface NAdamOptions {
  lr?: number;
  betas?: [number, number];
  eps?: number;
  weightDecay?: number;
  momentumDecay?: number;
  decoupledWeightDecay?: boolean;
  maximize?: boolean;
}

export class NAdam extends Optimizer {
  constructor(params: ParamsInput, lr?: number | NAdamOptions, ...rest: unknown[]);
  constructor(...args: unknown[]) {
    const [params, hyper] = construct(
      torchNAdam,
      ['lr', 'betas', 'eps', 'weightDecay', 'momentumDecay', 'decoupledWeightDecay'],
      ['maximize'],
      args,
    );
    super(params, torchNAdam, hyper);
  }
}

export class AdamW extends Optimizer {
  constructor(params: ParamsInput, lr?: number | AdamOptions, ...rest: unknown[]);
  constructor(...args: unknown[]) {
    const [params, hyper] = construct(
      torchAdamW,
      ['lr', 'betas', 'eps', 'weightDecay', 'amsgrad'],
      ['maximize'],
      args,
    );
    super(params, torchAdamW, hyper);
  }
}

export interface RMSpropOptions {
  lr?: number;
  alpha?: number;
  eps?: number;
  weightDecay?: number;
  momentum?: number;
  centered?: boolean;
  maximize?: boolean;
}

export class RMSprop extends Optimizer {
  constructor(params: ParamsInput, lr?: number | RMSpropOptions, ...rest: unknown[]);
  constructor(...args: unknown[]) {
    const [params, hyper] = construct(
      torchRmsprop,
      ['lr', 'alpha', 'eps', 'weightDecay', 'momentum', 'centered'],
      ['maximize'],
      args,
    );
    super(params, torchRmsprop, hyper);
  }
}

export interface AdagradOptions {
  lr?: number;
  lrDecay?: number;
  weightDecay?: number;
  initialAccumulatorValue?: number;
  eps?: number;
  maximize?: boolean;
}

export class Adagrad extends Optimizer {
  constructor(params: ParamsInput, lr?: number | AdagradOptions, ...rest: unknown[]);
  constructor(...args: unknown[]) {
    const [params, hyper] = construct(
      torchAdagrad,
      ['lr', 'lrDecay', 'weightDecay', 'initialAccumulatorValue', 'eps'],
      ['maximize'],
      args,
    );
    super(params, torchAdagrad, hyper);
  }
}
