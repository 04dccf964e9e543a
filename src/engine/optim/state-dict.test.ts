import { expect, it } from 'vitest';
import { cpu } from '../devices/registry';
import { fromHost } from '../ops/creation';
import { expectClose, randomValues, rng } from '../testing/harness';
import type { Tensor } from '../tensor';
import type { Optimizer } from './optimizer';
import { Adagrad, AdamW, NAdam, RMSprop, SGD } from './torch-optimizers';

const random = rng(3);
const start = Array.from(randomValues(5, random));
const grads = [0, 1, 2].map(() => Array.from(randomValues(5, random)));

function param(values: readonly number[] = start): Tensor {
  const p = fromHost(Float32Array.from(values), [5], { device: cpu() });
  p.requiresGrad = true;
  return p;
}

function step(opt: Optimizer, p: Tensor, g: readonly number[]): void {
  p.grad = fromHost(Float32Array.from(g), [5], { device: cpu() });
  opt.step();
}

it.each([
  ['SGD', (p: Tensor) => new SGD([p], { lr: 0.1, momentum: 0.9 })],
  ['AdamW', (p: Tensor) => new AdamW([p], { lr: 0.1, amsgrad: true })],
  ['RMSprop', (p: Tensor) => new RMSprop([p], { lr: 0.1, centered: true, momentum: 0.5 })],
  ['Adagrad', (p: Tensor) => new Adagrad([p], { lr: 0.1, lrDecay: 0.1 })],
  ['NAdam', (p: Tensor) => new NAdam([p], { lr: 0.1 })],
])('%s: a loaded stateDict continues as the original', async (_, make) => {
  const p = param();
  const opt = make(p);
  step(opt, p, grads[0]);
  step(opt, p, grads[1]);
  const saved = opt.stateDict();
  const q = param(Array.from((await p.data()) as Float32Array));
  const fresh = make(q);
  fresh.loadStateDict(saved);
  step(opt, p, grads[2]);
  step(fresh, q, grads[2]);
  expectClose(await q.data(), Array.from((await p.data()) as Float32Array), 'third step', 0, 0);
  // The saved copy did not move with the original's third step.
  expect(saved.state[0].step).toBe(2);
  expect(saved.paramGroups[0].params).toEqual([0]);
});

it('loadStateDict refuses a dict of another shape', () => {
  const opt = new SGD([param()], { lr: 0.1 });
  const other = new SGD([{ params: [param()] }, { params: [param()] }], { lr: 0.1 });
  expect(() => opt.loadStateDict(other.stateDict())).toThrow(
    /different number of parameter groups/,
  );
});
