/** PyTorch's RMSprop (centered, momentum, L2 weight decay, maximize) and Adagrad (lr decay). */
import { add, div, mul, neg, sqrt, sub } from '../../ops/elementwise';
import { fullLike } from '../../ops/creation';
import type { Tensor } from '../../tensor';
import { flag, num, type Hyper, type UpdateContext, type UpdateRule } from '../optimizer';

/** Torch's checks, in its order and words (ValueError in Python). */
function atLeastZero(h: Hyper, keys: readonly [string, string][]): void {
  for (const [key, label] of keys) {
    if (!(num(h, key) >= 0)) throw new RangeError(`Invalid ${label}: ${num(h, key)}`);
  }
}

/** The gradient as torch.optim's rules start from it: negated to maximize, plus the L2 term. */
function direction(param: Tensor, grad: Tensor, hyper: Hyper): Tensor {
  const g = flag(hyper, 'maximize') ? neg(grad) : grad;
  const weightDecay = num(hyper, 'weightDecay');
  return weightDecay === 0 ? g : add(g, mul(param, weightDecay));
}

/**
 * v = α·v + (1−α)·g²; centered: ḡ = α·ḡ + (1−α)·g, avg = √(v − ḡ²) + eps, else √v + eps;
 * momentum: b = μ·b + g/avg, p −= lr·b; else p −= lr·g/avg.
 */
export const torchRmsprop: UpdateRule = {
  name: 'RMSprop',
  defaults: {
    lr: 1e-2,
    alpha: 0.99,
    eps: 1e-8,
    weightDecay: 0,
    momentum: 0,
    centered: false,
    maximize: false,
  },
  validate(h: Hyper): void {
    atLeastZero(h, [
      ['lr', 'learning rate'],
      ['eps', 'epsilon value'],
      ['momentum', 'momentum value'],
      ['weightDecay', 'weight_decay value'],
      ['alpha', 'alpha value'],
    ]);
  },
  update({ param, grad, state, hyper }: UpdateContext): Tensor {
    const lr = num(hyper, 'lr');
    const alpha = num(hyper, 'alpha');
    const momentum = num(hyper, 'momentum');
    const g = direction(param, grad, hyper);
    const square0 = state.get('squareAvg') ?? fullLike(g, 0);
    const square = add(mul(square0, alpha), mul(mul(g, g), 1 - alpha));
    state.set('squareAvg', square);
    let variance = square;
    if (flag(hyper, 'centered')) {
      const mean0 = state.get('gradAvg') ?? fullLike(g, 0);
      const mean = add(mul(mean0, alpha), mul(g, 1 - alpha));
      state.set('gradAvg', mean);
      variance = sub(square, mul(mean, mean));
    }
    const avg = add(sqrt(variance), num(hyper, 'eps'));
    if (momentum > 0) {
      const buf0 = state.get('momentumBuffer') ?? fullLike(g, 0);
      const buf = add(mul(buf0, momentum), div(g, avg));
      state.set('momentumBuffer', buf);
      return sub(param, mul(buf, lr));
    }
    return sub(param, mul(div(g, avg), lr));
  },
};

/** sum += g² (from initial_accumulator_value); p −= lr/(1 + (t−1)·lr_decay) · g/(√sum + eps). */
export const torchAdagrad: UpdateRule = {
  name: 'Adagrad',
  defaults: {
    lr: 1e-2,
    lrDecay: 0,
    weightDecay: 0,
    initialAccumulatorValue: 0,
    eps: 1e-10,
    maximize: false,
  },
  validate(h: Hyper): void {
    atLeastZero(h, [
      ['lr', 'learning rate'],
      ['lrDecay', 'lr_decay value'],
      ['weightDecay', 'weight_decay value'],
      ['initialAccumulatorValue', 'initial_accumulator_value value'],
      ['eps', 'epsilon value'],
    ]);
  },
  update({ param, grad, state, hyper }: UpdateContext): Tensor {
    const g = direction(param, grad, hyper);
    const clr = num(hyper, 'lr') / (1 + (state.step - 1) * num(hyper, 'lrDecay'));
    const sum0 = state.get('sum') ?? fullLike(g, num(hyper, 'initialAccumulatorValue'));
    const sum = add(sum0, mul(g, g));
    state.set('sum', sum);
    return sub(param, mul(div(g, add(sqrt(sum), num(hyper, 'eps'))), clr));
  },
};
