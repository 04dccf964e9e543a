import { describe, expect, it } from 'vitest';
import { cpu } from '../devices/registry';
import { fromHost } from '../ops/creation';
import { expectClose, randomValues, rng } from '../testing/harness';
import type { Tensor } from '../tensor';
import { Optimizer, type UpdateRule } from './optimizer';
import { kerasAdam, kerasNadam, kerasSgd } from './rules/keras';
import { Adam, NAdam, SGD } from './torch-optimizers';

const N = 7;
const random = rng(42);
const start = randomValues(N, random);
const grads = [0, 1, 2].map(() => randomValues(N, random));

function param(): Tensor {
  const p = fromHost(Float32Array.from(start), [N], { device: cpu() });
  p.requiresGrad = true;
  return p;
}

/** Runs three steps with the fixed gradients through `.grad` and optimizer.step(). */
async function runTorch(
  make: (p: Tensor) => { step(): void; zeroGrad(): void },
): Promise<Float32Array[]> {
  const p = param();
  const opt = make(p);
  const out: Float32Array[] = [];
  for (const g of grads) {
    opt.zeroGrad();
    p.grad = fromHost(Float32Array.from(g), [N], { device: cpu() });
    opt.step();
    out.push((await p.data()) as Float32Array);
  }
  return out;
}

/** Runs three steps through applyUpdates (the Keras path: explicit gradients, no .grad). */
async function runKeras(rule: UpdateRule, hyper: Record<string, unknown>): Promise<Float32Array[]> {
  const p = param();
  const opt = new Optimizer([], rule, hyper);
  const out: Float32Array[] = [];
  for (const g of grads) {
    opt.applyUpdates([[fromHost(Float32Array.from(g), [N], { device: cpu() }), p]]);
    out.push((await p.data()) as Float32Array);
  }
  expect(p.grad).toBeNull();
  return out;
}

/** Float64 reference: `update(i, p, g, t, state)` per element over three steps. */
function reference(
  update: (p: number, g: number, t: number, s: Record<string, number>) => number,
): number[][] {
  const states = Array.from(start, () => ({}) as Record<string, number>);
  const p = Array.from(start);
  const out: number[][] = [];
  grads.forEach((g, k) => {
    for (let i = 0; i < N; i++) p[i] = update(p[i], g[i], k + 1, states[i]);
    out.push([...p]);
  });
  return out;
}

function expectSteps(actual: Float32Array[], expected: number[][], what: string): void {
  actual.forEach((a, k) => expectClose(a, expected[k], `${what} step ${k + 1}`, 1e-5, 1e-6));
}

describe('torch.optim rules against hand-computed updates', () => {
  it('SGD with momentum, dampening and weight decay', async () => {
    const [lr, mom, damp, wd] = [0.1, 0.9, 0.25, 0.01];
    const expected = reference((p, g, t, s) => {
      const d = g + wd * p;
      s.buf = t === 1 ? d : mom * s.buf + (1 - damp) * d;
      return p - lr * s.buf;
    });
    expectSteps(await runTorch((p) => new SGD([p], lr, mom, damp, wd)), expected, 'SGD');
  });

  it('SGD with Nesterov momentum (options object)', async () => {
    const [lr, mom] = [0.05, 0.8];
    const expected = reference((p, g, t, s) => {
      s.buf = t === 1 ? g : mom * s.buf + g;
      return p - lr * (g + mom * s.buf);
    });
    expectSteps(
      await runTorch((p) => new SGD([p], { lr, momentum: mom, nesterov: true })),
      expected,
      'SGD nesterov',
    );
  });

  it('plain SGD and maximize', async () => {
    const expected = reference((p, g) => p + 0.2 * g);
    expectSteps(
      await runTorch((p) => new SGD([p], { lr: 0.2, maximize: true })),
      expected,
      'SGD maximize',
    );
  });

  it('Adam with PyTorch defaults (lr 1e-3, betas 0.9/0.999, eps 1e-8)', async () => {
    const expected = reference((p, g, t, s) => {
      s.m = 0.9 * (s.m ?? 0) + 0.1 * g;
      s.v = 0.999 * (s.v ?? 0) + 0.001 * g * g;
      const denom = Math.sqrt(s.v) / Math.sqrt(1 - 0.999 ** t) + 1e-8;
      return p - (1e-3 / (1 - 0.9 ** t)) * (s.m / denom);
    });
    expectSteps(await runTorch((p) => new Adam([p])), expected, 'Adam');
  });

  it('Adam with weight decay, amsgrad and custom betas', async () => {
    const [lr, b1, b2, eps, wd] = [0.1, 0.5, 0.6, 1e-3, 0.1];
    const expected = reference((p, g0, t, s) => {
      const g = g0 + wd * p;
      s.m = b1 * (s.m ?? 0) + (1 - b1) * g;
      s.v = b2 * (s.v ?? 0) + (1 - b2) * g * g;
      s.vmax = Math.max(s.vmax ?? 0, s.v);
      const denom = Math.sqrt(s.vmax) / Math.sqrt(1 - b2 ** t) + eps;
      return p - (lr / (1 - b1 ** t)) * (s.m / denom);
    });
    const actual = await runTorch(
      (p) => new Adam([p], { lr, betas: [b1, b2], eps, weightDecay: wd, amsgrad: true }),
    );
    expectSteps(actual, expected, 'Adam amsgrad');
  });

  it('NAdam with PyTorch defaults (lr 2e-3, momentum decay 4e-3)', async () => {
    const [lr, b1, b2, eps, psi] = [2e-3, 0.9, 0.999, 1e-8, 4e-3];
    let muProduct = 1;
    const expected = reference((p, g, t, s) => {
      const mu = b1 * (1 - 0.5 * 0.96 ** (t * psi));
      const muNext = b1 * (1 - 0.5 * 0.96 ** ((t + 1) * psi));
      // Every element shares the schedule; compute the product once per step.
      if (s.t !== t) s.product = (s.product ?? 1) * mu;
      s.t = t;
      muProduct = s.product;
      s.m = b1 * (s.m ?? 0) + (1 - b1) * g;
      s.v = b2 * (s.v ?? 0) + (1 - b2) * g * g;
      const denom = Math.sqrt(s.v / (1 - b2 ** t)) + eps;
      return (
        p -
        (lr * (1 - mu) * g) / (1 - muProduct) / denom -
        (lr * muNext * s.m) / (1 - muProduct * muNext) / denom
      );
    });
    expectSteps(await runTorch((p) => new NAdam([p])), expected, 'NAdam');
  });

  it('reads lr from the param group at every step', async () => {
    const p = param();
    const opt = new SGD([p], 0.1);
    p.grad = fromHost(Float32Array.from(grads[0]), [N], { device: cpu() });
    opt.paramGroups[0].lr = 0.5;
    opt.step();
    expectClose(
      await p.data(),
      Array.from(start, (v, i) => v - 0.5 * grads[0][i]),
      'lr change',
    );
  });

  it('zeroGrad sets gradients to null, or to zeros in place', async () => {
    const p = param();
    const opt = new Adam([p], { lr: 0.1 });
    p.grad = fromHost(Float32Array.from(grads[0]), [N], { device: cpu() });
    const held = p.grad;
    opt.zeroGrad({ setToNone: false });
    expect(p.grad).toBe(held);
    expect(Array.from(await held.data())).toEqual(new Array(N).fill(0));
    opt.zeroGrad();
    expect(p.grad).toBeNull();
  });

  it('refuses bad arguments with PyTorch messages', () => {
    expect(() => new Adam([param()], { lr: -1 })).toThrow('Invalid learning rate: -1');
    expect(() => new Adam([], { lr: 0.1 })).toThrow('optimizer got an empty parameter list');
    expect(() => new SGD([param()], { lr: 0.1, momentun: 0.9 } as never)).toThrow(
      "unexpected keyword argument 'momentun'",
    );
    expect(() => new Adam([param()], { betas: [1.5, 0.9] })).toThrow(
      'Invalid beta parameter at index 0',
    );
  });

  it('accepts parameter groups with their own lr', async () => {
    const a = param();
    const b = param();
    const opt = new SGD([{ params: [a] }, { params: [b], lr: 1 }], { lr: 0.1 });
    a.grad = fromHost(Float32Array.from(grads[0]), [N], { device: cpu() });
    b.grad = fromHost(Float32Array.from(grads[0]), [N], { device: cpu() });
    opt.step();
    expectClose(
      await a.data(),
      Array.from(start, (v, i) => v - 0.1 * grads[0][i]),
      'group 0',
    );
    expectClose(
      await b.data(),
      Array.from(start, (v, i) => v - grads[0][i]),
      'group 1',
    );
  });
});

describe('Keras rules against hand-computed updates', () => {
  it('Adam: lr_t = lr·√(1−b2ᵗ)/(1−b1ᵗ), eps 1e-7 outside the root', async () => {
    const expected = reference((p, g, t, s) => {
      s.m = (s.m ?? 0) + (g - (s.m ?? 0)) * 0.1;
      s.v = (s.v ?? 0) + (g * g - (s.v ?? 0)) * 0.001;
      const lrT = (1e-3 * Math.sqrt(1 - 0.999 ** t)) / (1 - 0.9 ** t);
      return p - (lrT * s.m) / (Math.sqrt(s.v) + 1e-7);
    });
    expectSteps(await runKeras(kerasAdam, {}), expected, 'Keras Adam');
  });

  it('Nadam with the TF 2.x momentum schedule (0.96^(0.004 t))', async () => {
    const [lr, b1, b2, eps] = [0.01, 0.9, 0.999, 1e-7];
    const expected = reference((p, g, t, s) => {
      const u = b1 * (1 - 0.5 * 0.96 ** (0.004 * t));
      const uNext = b1 * (1 - 0.5 * 0.96 ** (0.004 * (t + 1)));
      if (s.t !== t) s.product = (s.product ?? 1) * u;
      s.t = t;
      const gPrime = g / (1 - s.product);
      s.m = b1 * (s.m ?? 0) + (1 - b1) * g;
      const mPrime = s.m / (1 - s.product * uNext);
      s.v = b2 * (s.v ?? 0) + (1 - b2) * g * g;
      const vPrime = s.v / (1 - b2 ** t);
      const mBar = (1 - u) * gPrime + uNext * mPrime;
      return p - (lr * mBar) / (Math.sqrt(vPrime) + eps);
    });
    expectSteps(await runKeras(kerasNadam, { lr }), expected, 'Keras Nadam');
  });

  it('SGD with momentum and Nesterov', async () => {
    const [lr, mom] = [0.1, 0.9];
    const plain = reference((p, g, _t, s) => {
      s.m = mom * (s.m ?? 0) - lr * g;
      return p + s.m;
    });
    expectSteps(await runKeras(kerasSgd, { lr, momentum: mom }), plain, 'Keras SGD momentum');
    const nesterov = reference((p, g, _t, s) => {
      s.m = mom * (s.m ?? 0) - lr * g;
      return p + mom * s.m - lr * g;
    });
    expectSteps(
      await runKeras(kerasSgd, { lr, momentum: mom, nesterov: true }),
      nesterov,
      'Keras SGD nesterov',
    );
  });
});
