/**
 * PyTorch's Adam (L2 weight decay, amsgrad, maximize), AdamW (decoupled weight decay) and NAdam (momentum decay schedule,
 * optionally decoupled weight decay), with torch.optim's formulas and defaults.
 */
import { add, div, maximum, mul, neg, sqrt, sub } from '../../ops/elementwise';
import { fullLike } from '../../ops/creation';
import { clone } from '../../ops/shape-ops';
import { adamStep, canFuseAdam } from '../../ops/fused-adam';
import { copyInto } from '../../ops/inplace';
import type { Tensor } from '../../tensor';
import {
  flag,
  num,
  pair,
  type Hyper,
  type ParamState,
  type UpdateContext,
  type UpdateRule,
} from '../optimizer';

function validateAdam(h: Hyper): void {
  const [b1, b2] = pair(h, 'betas');
  if (num(h, 'lr') < 0) throw new RangeError(`Invalid learning rate: ${num(h, 'lr')}`);
  if (num(h, 'eps') < 0) throw new RangeError(`Invalid epsilon value: ${num(h, 'eps')}`);
  if (!(b1 >= 0 && b1 < 1)) throw new RangeError(`Invalid beta parameter at index 0: ${b1}`);
  if (!(b2 >= 0 && b2 < 1)) throw new RangeError(`Invalid beta parameter at index 1: ${b2}`);
  if (num(h, 'weightDecay') < 0)
    throw new RangeError(`Invalid weight_decay value: ${num(h, 'weightDecay')}`);
}

/** exp_avg.lerp_(g, 1 - b1) and exp_avg_sq.mul_(b2).addcmul_(g, g, 1 - b2), as new state. */
function moments(state: ParamState, g: Tensor, b1: number, b2: number): [Tensor, Tensor] {
  const m0 = state.get('expAvg') ?? fullLike(g, 0);
  const v0 = state.get('expAvgSq') ?? fullLike(g, 0);
  const m = add(m0, mul(sub(g, m0), 1 - b1));
  const v = add(mul(v0, b2), mul(mul(g, g), 1 - b2));
  state.set('expAvg', m);
  state.set('expAvgSq', v);
  return [m, v];
}

/**
 * The fused step's zero moments, made for every parameter before any parameter's update: made
 * between two parameters' updates, their fill would split the steps the fusing layer groups into
 * one multi-tensor Adam kernel, so the first step would run (and compile) other kernels than the
 * later ones.
 */
function prepareAdam({ param, grad, state, hyper }: UpdateContext): void {
  if (flag(hyper, 'amsgrad')) return;
  if (!canFuseAdam(param, grad, state.get('expAvg'), state.get('expAvgSq'))) return;
  if (!state.get('expAvg')) state.set('expAvg', fullLike(param, 0));
  if (!state.get('expAvgSq')) state.set('expAvgSq', fullLike(param, 0));
}

/**
 * One Adam step from `base` (the parameter, or for AdamW the parameter already decayed), with
 * `l2` added to the gradient (Adam's weight_decay; 0 for AdamW). Fused into one kernel where it can.
 */
function adamUpdate(
  { param, grad, state, hyper }: UpdateContext,
  base: Tensor,
  l2: number,
): Tensor {
  const lr = num(hyper, 'lr');
  const [b1, b2] = pair(hyper, 'betas');
  const t = state.step;
  if (
    !flag(hyper, 'amsgrad') &&
    canFuseAdam(param, grad, state.get('expAvg'), state.get('expAvgSq'))
  ) {
    // AdamW's decay first, in place: the fused kernel then reads the decayed parameter.
    if (base !== param) copyInto(param, base);
    // One fused kernel updates p, m and v in place (returning param tells the core it is done).
    if (!state.get('expAvg')) state.set('expAvg', fullLike(param, 0));
    if (!state.get('expAvgSq')) state.set('expAvgSq', fullLike(param, 0));
    adamStep(param, grad, state.get('expAvg')!, state.get('expAvgSq')!, {
      beta1: b1,
      beta2: b2,
      stepSize: lr / (1 - b1 ** t),
      vScale: 1 / Math.sqrt(1 - b2 ** t),
      eps: num(hyper, 'eps'),
      weightDecay: l2,
      maximize: flag(hyper, 'maximize'),
    });
    return param;
  }
  let g = flag(hyper, 'maximize') ? neg(grad) : grad;
  if (l2 !== 0) g = add(g, mul(param, l2));
  const [m, moment2] = moments(state, g, b1, b2);
  let v = moment2;
  if (flag(hyper, 'amsgrad')) {
    const previous = state.get('maxExpAvgSq');
    // Starts from zeros in PyTorch, so the first maximum is v itself (copied: state owns it).
    v = previous ? maximum(previous, v) : clone(v);
    state.set('maxExpAvgSq', v);
  }
  const stepSize = lr / (1 - b1 ** t);
  const denom = add(div(sqrt(v), Math.sqrt(1 - b2 ** t)), num(hyper, 'eps'));
  return sub(base, mul(div(m, denom), stepSize));
}

export const torchAdam: UpdateRule = {
  name: 'Adam',
  defaults: {
    lr: 1e-3,
    betas: [0.9, 0.999],
    eps: 1e-8,
    weightDecay: 0,
    amsgrad: false,
    maximize: false,
  },
  validate: validateAdam,
  prepare: prepareAdam,
  update(ctx: UpdateContext): Tensor {
    return adamUpdate(ctx, ctx.param, num(ctx.hyper, 'weightDecay'));
  },
};

/** AdamW: Adam with decoupled weight decay, p *= 1 - lr·weight_decay before the Adam step. */
export const torchAdamW: UpdateRule = {
  name: 'AdamW',
  defaults: {
    lr: 1e-3,
    betas: [0.9, 0.999],
    eps: 1e-8,
    weightDecay: 1e-2,
    amsgrad: false,
    maximize: false,
  },
  validate: validateAdam,
  prepare: prepareAdam,
  update(ctx: UpdateContext): Tensor {
    const decay = num(ctx.hyper, 'lr') * num(ctx.hyper, 'weightDecay');
    return adamUpdate(ctx, decay === 0 ? ctx.param : mul(ctx.param, 1 - decay), 0);
  },
};

export const torchNAdam: UpdateRule = {
  name: 'NAdam',
  defaults: {
    lr: 2e-3,
    betas: [0.9, 0.999],
    eps: 1e-8,
    weightDecay: 0,
    momentumDecay: 4e-3,
    decoupledWeightDecay: false,
    maximize: false,
  },
  validate(h: Hyper): void {
    validateAdam(h);
    if (num(h, 'momentumDecay') < 0)
      throw new RangeError(`Invalid momentum_decay value: ${num(h, 'momentumDecay')}`);
  },
  update({ param, grad, state, hyper }: UpdateContext): Tensor {
    const lr = num(hyper, 'lr');
    const [b1, b2] = pair(hyper, 'betas');
    const weightDecay = num(hyper, 'weightDecay');
    const psi = num(hyper, 'momentumDecay');
    let p = param;
    let g = flag(hyper, 'maximize') ? neg(grad) : grad;
    if (weightDecay !== 0) {
      if (flag(hyper, 'decoupledWeightDecay')) p = mul(param, 1 - lr * weightDecay);
      else g = add(g, mul(param, weightDecay));
    }
    const t = state.step;
    // The momentum schedule is host arithmetic: only the step count enters it.
    const mu = b1 * (1 - 0.5 * 0.96 ** (t * psi));
    const muNext = b1 * (1 - 0.5 * 0.96 ** ((t + 1) * psi));
    const muProduct = state.scalar('muProduct', 1) * mu;
    state.scalars.set('muProduct', muProduct);
    const [m, v] = moments(state, g, b1, b2);
    const denom = add(sqrt(div(v, 1 - b2 ** t)), num(hyper, 'eps'));
    const fromGrad = mul(div(g, denom), (-lr * (1 - mu)) / (1 - muProduct));
    const fromMomentum = mul(div(m, denom), (-lr * muNext) / (1 - muProduct * muNext));
    return add(add(p, fromGrad), fromMomentum);
  },
};
