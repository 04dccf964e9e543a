/**
 * Keras's update rules (tf.keras.optimizers Adam, Nadam, SGD) for the tf side to wrap: Keras's
 * defaults (epsilon 1e-7), its bias-corrected learning rate for Adam, Nadam's momentum schedule,
 * and Keras's form of momentum for SGD. Weight decay, when given, is decoupled as Keras does it.
 */
import { add, div, maximum, mul, sqrt, sub } from '../../ops/elementwise';
import { fullLike } from '../../ops/creation';
import { clone } from '../../ops/shape-ops';
import { adamStep, canFuseAdam } from '../../ops/fused-adam';
import type { Tensor } from '../../tensor';
import { flag, num, pair, type Hyper, type UpdateContext, type UpdateRule } from '../optimizer';

function validate(h: Hyper): void {
  if (num(h, 'lr') < 0) throw new RangeError(`Invalid learning rate: ${num(h, 'lr')}`);
  if ('betas' in h) {
    const [b1, b2] = pair(h, 'betas');
    if (!(b1 >= 0 && b1 < 1) || !(b2 >= 0 && b2 < 1))
      throw new RangeError(`Invalid betas: [${b1}, ${b2}]`);
  }
}

function decayed(param: Tensor, hyper: Hyper): Tensor {
  const wd = num(hyper, 'weightDecay');
  return wd === 0 ? param : mul(param, 1 - num(hyper, 'lr') * wd);
}

/** m += (g - m)(1 - b1); v += (g² - v)(1 - b2), Keras's assign_add form. */
function moments(ctx: UpdateContext, b1: number, b2: number): [Tensor, Tensor] {
  const { grad: g, state } = ctx;
  const m0 = state.get('m') ?? fullLike(g, 0);
  const v0 = state.get('v') ?? fullLike(g, 0);
  const m = add(m0, mul(sub(g, m0), 1 - b1));
  const v = add(v0, mul(sub(mul(g, g), v0), 1 - b2));
  state.set('m', m);
  state.set('v', v);
  return [m, v];
}

/** alpha = lr·√(1−b2ᵗ)/(1−b1ᵗ); p −= alpha·m/(√v + eps). */
export const kerasAdam: UpdateRule = {
  name: 'KerasAdam',
  defaults: { lr: 1e-3, betas: [0.9, 0.999], eps: 1e-7, amsgrad: false, weightDecay: 0 },
  validate,
  update(ctx: UpdateContext): Tensor {
    const { hyper, state } = ctx;
    const [b1, b2] = pair(hyper, 'betas');
    const fusable =
      !flag(hyper, 'amsgrad') &&
      num(hyper, 'weightDecay') === 0 &&
      canFuseAdam(ctx.param, ctx.grad, state.get('m'), state.get('v'));
    if (fusable) {
      // One fused kernel updates p, m and v in place (returning param tells the core it is done).
      if (!state.get('m')) state.set('m', fullLike(ctx.param, 0));
      if (!state.get('v')) state.set('v', fullLike(ctx.param, 0));
      const t = state.step;
      adamStep(ctx.param, ctx.grad, state.get('m')!, state.get('v')!, {
        beta1: b1,
        beta2: b2,
        stepSize: (num(hyper, 'lr') * Math.sqrt(1 - b2 ** t)) / (1 - b1 ** t),
        vScale: 1,
        eps: num(hyper, 'eps'),
        weightDecay: 0,
        maximize: false,
      });
      return ctx.param;
    }
    const p = decayed(ctx.param, hyper);
    const [m, moment2] = moments(ctx, b1, b2);
    let v = moment2;
    if (flag(hyper, 'amsgrad')) {
      const previous = state.get('vHat');
      v = previous ? maximum(previous, v) : clone(v);
      state.set('vHat', v);
    }
    const t = state.step;
    const alpha = (num(hyper, 'lr') * Math.sqrt(1 - b2 ** t)) / (1 - b1 ** t);
    return sub(p, div(mul(m, alpha), add(sqrt(v), num(hyper, 'eps'))));
  },
};

/**
 * Nadam with Keras's momentum schedule u_t = b1·(1 − ½·0.96^(scheduleDecay·t)). TF 2.x's
 * tf.keras.optimizers.Nadam (the chapters' era) uses scheduleDecay 0.004; Keras 3 uses 1.
 */
export const kerasNadam: UpdateRule = {
  name: 'KerasNadam',
  defaults: { lr: 1e-3, betas: [0.9, 0.999], eps: 1e-7, scheduleDecay: 0.004, weightDecay: 0 },
  validate,
  update(ctx: UpdateContext): Tensor {
    const { hyper, state, grad: g } = ctx;
    const [b1, b2] = pair(hyper, 'betas');
    const decay = num(hyper, 'scheduleDecay');
    const t = state.step;
    const u = b1 * (1 - 0.5 * 0.96 ** (decay * t));
    const uNext = b1 * (1 - 0.5 * 0.96 ** (decay * (t + 1)));
    const uProduct = state.scalar('uProduct', 1) * u;
    state.scalars.set('uProduct', uProduct);
    const p = decayed(ctx.param, hyper);
    const [m, v] = moments(ctx, b1, b2);
    const mHat = add(mul(m, uNext / (1 - uProduct * uNext)), mul(g, (1 - u) / (1 - uProduct)));
    const vHat = div(v, 1 - b2 ** t);
    return sub(p, div(mul(mHat, num(hyper, 'lr')), add(sqrt(vHat), num(hyper, 'eps'))));
  },
};

/** m = momentum·m − lr·g; p += m (or p += momentum·m − lr·g with Nesterov); plain p −= lr·g. */
export const kerasSgd: UpdateRule = {
  name: 'KerasSGD',
  defaults: { lr: 0.01, momentum: 0, nesterov: false, weightDecay: 0 },
  validate(h: Hyper): void {
    validate(h);
    const momentum = num(h, 'momentum');
    if (!(momentum >= 0 && momentum <= 1))
      throw new RangeError(`momentum must be between 0 and 1, got ${momentum}`);
  },
  update(ctx: UpdateContext): Tensor {
    const { hyper, state, grad: g } = ctx;
    const lr = num(hyper, 'lr');
    const momentum = num(hyper, 'momentum');
    const p = decayed(ctx.param, hyper);
    if (momentum === 0) return sub(p, mul(g, lr));
    const m0 = state.get('m') ?? fullLike(g, 0);
    const m = sub(mul(m0, momentum), mul(g, lr));
    state.set('m', m);
    return flag(hyper, 'nesterov') ? add(p, sub(mul(m, momentum), mul(g, lr))) : add(p, m);
  },
};
