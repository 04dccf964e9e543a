/** PyTorch's SGD: momentum (with dampening), Nesterov momentum, L2 weight decay, maximize. */
import { add, mul, neg } from '../../ops/elementwise';
import { clone } from '../../ops/shape-ops';
import type { Tensor } from '../../tensor';
import { flag, num, type Hyper, type UpdateContext, type UpdateRule } from '../optimizer';

export const torchSgd: UpdateRule = {
  name: 'SGD',
  defaults: {
    lr: 1e-3,
    momentum: 0,
    dampening: 0,
    weightDecay: 0,
    nesterov: false,
    maximize: false,
  },
  validate(h: Hyper): void {
    if (num(h, 'lr') < 0) throw new RangeError(`Invalid learning rate: ${num(h, 'lr')}`);
    if (num(h, 'momentum') < 0)
      throw new RangeError(`Invalid momentum value: ${num(h, 'momentum')}`);
    if (num(h, 'weightDecay') < 0)
      throw new RangeError(`Invalid weight_decay value: ${num(h, 'weightDecay')}`);
    if (flag(h, 'nesterov') && (num(h, 'momentum') <= 0 || num(h, 'dampening') !== 0)) {
      throw new RangeError('Nesterov momentum requires a momentum and zero dampening');
    }
  },
  update({ param, grad, state, hyper }: UpdateContext): Tensor {
    const lr = num(hyper, 'lr');
    const momentum = num(hyper, 'momentum');
    const weightDecay = num(hyper, 'weightDecay');
    let d = flag(hyper, 'maximize') ? neg(grad) : grad;
    if (weightDecay !== 0) d = add(d, mul(param, weightDecay));
    if (momentum !== 0) {
      const previous = state.get('momentumBuffer');
      // The first step starts the buffer at the gradient itself (no dampening), as PyTorch does.
      const buf = previous
        ? add(mul(previous, momentum), mul(d, 1 - num(hyper, 'dampening')))
        : clone(d);
      state.set('momentumBuffer', buf);
      d = flag(hyper, 'nesterov') ? add(d, mul(buf, momentum)) : buf;
    }
    return add(param, mul(d, -lr));
  },
};
