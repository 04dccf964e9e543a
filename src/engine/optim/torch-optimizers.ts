/**
 * torch.optim's classes over the optimizer core: `new SGD(params, lr, momentum, …)` or
 * `new Adam(params, { lr: 0.01 })`, with PyTorch's positional order and defaults.
 */
import { bindArgs, type BoundArgs } from '../args';
import { Optimizer, type ParamsInput, type UpdateRule } from './optimizer';
import { torchAdam, torchNAdam } from './rules/torch-adam';
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
