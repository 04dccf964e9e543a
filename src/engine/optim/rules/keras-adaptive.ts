/**
 * Keras's RMSprop and Adagrad update rules (tf.keras.optimizers in TF 2.15 and Keras 3), which
 * differ from PyTorch's: epsilon sits inside the square root, Adagrad's accumulator starts at
 * `initialAccumulatorValue` (0.1), and RMSprop's momentum accumulates the scaled step. Weight
 * decay, when given, is Keras's decoupled `p -= p·lr·wd` before the update.
 */
import { add, div, mul, sqrt, square, sub } from '../../ops/elementwise';
import { fullLike } from '../../ops/creation';
import type { Tensor } from '../../tensor';
import { flag, num, type Hyper, type UpdateContext, type UpdateRule } from '../optimizer';

function validate(h: Hyper): void {
  if (num(h, 'lr') < 0) throw new RangeError(`Invalid learning rate: ${num(h, 'lr')}`);
  if (num(h, 'eps') < 0) throw new RangeError(`Invalid epsilon: ${num(h, 'eps')}`);
}

function decayed(param: Tensor, hyper: Hyper): Tensor {
  const wd = num(hyper, 'weightDecay');
  return wd === 0 ? param : mul(param, 1 - num(hyper, 'lr') * wd);
}

/**
 * v = ρv + (1−ρ)g²; (centered: a = ρa + (1−ρ)g, v − a²); step = lr·g/√(v + eps);
 * with momentum: m = momentum·m + step, p −= m; else p −= step.
 */
export const kerasRmsprop: UpdateRule = {
  name: 'KerasRMSprop',
  defaults: { lr: 1e-3, rho: 0.9, momentum: 0, eps: 1e-7, centered: false, weightDecay: 0 },
  validate(h: Hyper): void {
    validate(h);
    const rho = num(h, 'rho');
    if (!(rho >= 0 && rho <= 1)) throw new RangeError(`rho must be between 0 and 1, got ${rho}`);
    if (num(h, 'momentum') < 0)
      throw new RangeError(`momentum must be non-negative, got ${num(h, 'momentum')}`);
  },
  update(ctx: UpdateContext): Tensor {
    const { hyper, state, grad: g } = ctx;
    const rho = num(hyper, 'rho');
    const momentum = num(hyper, 'momentum');
    const p = decayed(ctx.param, hyper);
    const v = add(mul(state.get('velocity') ?? fullLike(g, 0), rho), mul(square(g), 1 - rho));
    state.set('velocity', v);
    let denominator: Tensor;
    if (flag(hyper, 'centered')) {
      const avg0 = state.get('averageGradient') ?? fullLike(g, 0);
      const avg = add(mul(avg0, rho), mul(g, 1 - rho));
      state.set('averageGradient', avg);
      denominator = add(sub(v, square(avg)), num(hyper, 'eps'));
    } else {
      denominator = add(v, num(hyper, 'eps'));
    }
    const increment = div(mul(g, num(hyper, 'lr')), sqrt(denominator));
    if (momentum > 0) {
      const m = add(mul(state.get('momentum') ?? fullLike(g, 0), momentum), increment);
      state.set('momentum', m);
      return sub(p, m);
    }
    return sub(p, increment);
  },
};

/** acc += g² (acc starting at initialAccumulatorValue); p −= lr·g/√(acc + eps). */
export const kerasAdagrad: UpdateRule = {
  name: 'KerasAdagrad',
  defaults: { lr: 1e-3, initialAccumulatorValue: 0.1, eps: 1e-7, weightDecay: 0 },
  validate(h: Hyper): void {
    validate(h);
    const init = num(h, 'initialAccumulatorValue');
    if (!(init >= 0))
      throw new RangeError(`initial_accumulator_value must be non-negative, got ${init}`);
  },
  update(ctx: UpdateContext): Tensor {
    const { hyper, state, grad: g } = ctx;
    const acc0 = state.get('accumulator') ?? fullLike(g, num(hyper, 'initialAccumulatorValue'));
    const acc = add(acc0, square(g));
    state.set('accumulator', acc);
    const p = decayed(ctx.param, hyper);
    return sub(p, div(mul(g, num(hyper, 'lr')), sqrt(add(acc, num(hyper, 'eps')))));
  },
};
