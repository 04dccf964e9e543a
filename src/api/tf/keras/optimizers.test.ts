import { describe, expect, it } from 'vitest';
import { cpu, ops, type Tensor } from '../../../engine';
import { expectClose } from '../../../engine/testing/harness';
import { zip } from '../gradient-tape';
import { Adam, getOptimizer, Nadam, SGD } from './optimizers';

const device = cpu();
const start = [0.5, -1.25, 2];
const grads = [
  [0.3, -0.7, 1.1],
  [-0.2, 0.4, 0.9],
  [0.05, -1.5, 0.6],
];

function variable(): Tensor {
  const v = ops.fromData(start, { device });
  v.requiresGrad = true;
  return v.keep();
}

async function run(
  make: () => { applyGradients: (p: Iterable<readonly [Tensor | null, Tensor]>) => number },
): Promise<number[][]> {
  const opt = make();
  const v = variable();
  const seen: number[][] = [];
  for (const g of grads) {
    opt.applyGradients(zip([ops.fromData(g, { device })], [v]));
    seen.push(Array.from(await v.data()));
  }
  return seen;
}

/** Keras's formulas in float64, one variable at a time. */
function kerasAdam(lr: number, b1: number, b2: number, eps: number): number[][] {
  const p = [...start];
  const m = [0, 0, 0];
  const v = [0, 0, 0];
  return grads.map((g, s) => {
    const t = s + 1;
    const lrT = (lr * Math.sqrt(1 - b2 ** t)) / (1 - b1 ** t);
    for (let i = 0; i < 3; i++) {
      m[i] = b1 * m[i] + (1 - b1) * g[i];
      v[i] = b2 * v[i] + (1 - b2) * g[i] ** 2;
      p[i] -= (lrT * m[i]) / (Math.sqrt(v[i]) + eps);
    }
    return [...p];
  });
}

/** tf.keras.optimizers.Nadam of TF 2.x (optimizer_v2/nadam.py), with its shared m_schedule. */
function kerasNadam(lr: number, b1: number, b2: number, eps: number): number[][] {
  const p = [...start];
  const m = [0, 0, 0];
  const v = [0, 0, 0];
  let mSchedule = 1;
  return grads.map((g, s) => {
    const t = s + 1;
    const cacheT = b1 * (1 - 0.5 * 0.96 ** (0.004 * t));
    const cacheT1 = b1 * (1 - 0.5 * 0.96 ** (0.004 * (t + 1)));
    const mScheduleNew = mSchedule * cacheT;
    const mScheduleNext = mScheduleNew * cacheT1;
    mSchedule = mScheduleNew;
    for (let i = 0; i < 3; i++) {
      const gPrime = g[i] / (1 - mScheduleNew);
      m[i] = b1 * m[i] + (1 - b1) * g[i];
      const mPrime = m[i] / (1 - mScheduleNext);
      v[i] = b2 * v[i] + (1 - b2) * g[i] ** 2;
      const vPrime = v[i] / (1 - b2 ** t);
      const mBar = (1 - cacheT) * gPrime + cacheT1 * mPrime;
      p[i] -= (lr * mBar) / (Math.sqrt(vPrime) + eps);
    }
    return [...p];
  });
}

function kerasSgd(lr: number, momentum: number, nesterov: boolean): number[][] {
  const p = [...start];
  const velocity = [0, 0, 0];
  return grads.map((g) => {
    for (let i = 0; i < 3; i++) {
      velocity[i] = momentum * velocity[i] - lr * g[i];
      p[i] += nesterov ? momentum * velocity[i] - lr * g[i] : velocity[i];
    }
    return [...p];
  });
}

describe('tf.keras.optimizers', () => {
  it('Adam: Keras defaults (lr 1e-3, eps 1e-7) and the bias-corrected step, three steps', async () => {
    const got = await run(() => new Adam());
    kerasAdam(1e-3, 0.9, 0.999, 1e-7).forEach((row, i) =>
      expectClose(Float64Array.from(got[i]), row, `adam step ${i + 1}`, 1e-5),
    );
    const custom = await run(
      () => new Adam({ learningRate: 0.1, beta1: 0.8, beta2: 0.99, epsilon: 1e-3 }),
    );
    kerasAdam(0.1, 0.8, 0.99, 1e-3).forEach((row, i) =>
      expectClose(Float64Array.from(custom[i]), row, `adam custom ${i + 1}`, 1e-5),
    );
  });

  it("Nadam: TF 2.x's momentum schedule, three steps", async () => {
    const got = await run(() => new Nadam());
    kerasNadam(1e-3, 0.9, 0.999, 1e-7).forEach((row, i) =>
      expectClose(Float64Array.from(got[i]), row, `nadam step ${i + 1}`, 1e-5),
    );
    const fast = await run(() => new Nadam(0.05));
    kerasNadam(0.05, 0.9, 0.999, 1e-7).forEach((row, i) =>
      expectClose(Float64Array.from(fast[i]), row, `nadam lr 0.05 ${i + 1}`, 1e-5),
    );
  });

  it('SGD: plain, momentum and Nesterov in the Keras form', async () => {
    for (const [momentum, nesterov] of [
      [0, false],
      [0.9, false],
      [0.9, true],
    ] as const) {
      const got = await run(() => new SGD({ learningRate: 0.1, momentum, nesterov }));
      kerasSgd(0.1, momentum, nesterov).forEach((row, i) =>
        expectClose(
          Float64Array.from(got[i]),
          row,
          `sgd m=${momentum} n=${nesterov} ${i + 1}`,
          1e-5,
        ),
      );
    }
  });

  it('counts iterations, exposes learningRate and resolves names', () => {
    const opt = getOptimizer('adam');
    expect(opt).toBeInstanceOf(Adam);
    expect(opt.learningRate).toBe(0.001);
    expect(getOptimizer('Nadam')).toBeInstanceOf(Nadam);
    const v = variable();
    opt.applyGradients([[ops.fromData([1, 1, 1], { device }), v]]);
    opt.applyGradients([[ops.fromData([1, 1, 1], { device }), v]]);
    expect(opt.iterations).toBe(2);
    opt.learningRate = 0.5;
    expect(opt.paramGroups[0].lr).toBe(0.5);
    expect(() => new SGD({ decay: 0.1 })).toThrow(/decay is not supported/);
    expect(() => opt.applyGradients([[null, v]])).toThrow(/No gradients provided/);
  });
});
