import { describe, expect, it } from 'vitest';
import { cpu, ops, type Tensor } from '../../engine';
import { expectClose, rng } from '../../engine/testing/harness';
import { GradientTape, GradientTapeImpl } from './gradient-tape';

const device = cpu();

function variable(values: number[], shape: number[]): Tensor {
  const v = ops.fromHost(Float32Array.from(values), shape, { device });
  v.requiresGrad = true;
  return v;
}

/** f(W, b) = Σ tanh(x·W + b)² with x fixed, in float64. */
function f64(x: number[][], w: number[], b: number[]): number {
  let s = 0;
  for (const row of x)
    for (let j = 0; j < 2; j++) {
      let z = b[j];
      for (let i = 0; i < 3; i++) z += row[i] * w[i * 2 + j];
      s += Math.tanh(z) ** 2;
    }
  return s;
}

describe('tf.GradientTape', () => {
  const random = rng(5);
  const x = [0, 1, 2, 3].map(() => [0, 1, 2].map(() => Math.fround(random() * 2 - 1)));
  const w0 = [0, 1, 2, 3, 4, 5].map(() => Math.fround(random() * 2 - 1));
  const b0 = [Math.fround(0.3), Math.fround(-0.2)];

  it('gradients match central finite differences and come back in the structure of the sources', async () => {
    const w = variable(w0, [3, 2]);
    const b = variable(b0, [2]);
    const tape = new GradientTape();
    const z = ops.add(ops.matmul(ops.fromData(x, { device }), w), b);
    const loss = ops.sum(ops.square(ops.tanh(z)));
    const [gw, gb] = tape.gradient(loss, [w, b]);
    const numeric = (which: 'w' | 'b', i: number): number => {
      const eps = 1e-6;
      const wp = [...w0];
      const bp = [...b0];
      const wm = [...w0];
      const bm = [...b0];
      if (which === 'w') {
        wp[i] += eps;
        wm[i] -= eps;
      } else {
        bp[i] += eps;
        bm[i] -= eps;
      }
      return (f64(x, wp, bp) - f64(x, wm, bm)) / (2 * eps);
    };
    expectClose(
      await (gw as Tensor).data(),
      w0.map((_, i) => numeric('w', i)),
      'dW',
      1e-3,
    );
    expectClose(
      await (gb as Tensor).data(),
      b0.map((_, i) => numeric('b', i)),
      'db',
      1e-3,
    );
    const record = new GradientTapeImpl({ persistent: true });
    const loss2 = ops.sum(ops.mul(w, w));
    const grads = record.gradient(loss2, { weight: w, other: [b] });
    expectClose(
      await (grads.weight as Tensor).data(),
      w0.map((v) => 2 * v),
      'record structure',
    );
    expect(grads.other[0]).toBeNull();
  });

  it('leaves .grad as it was (no accumulation), and a non-persistent tape is single-use', async () => {
    const w = variable([1, 2, 3], [3]);
    w.grad = ops.fromData([10, 10, 10], { device });
    const tape = new GradientTape();
    const loss = ops.sum(ops.mul(w, w));
    const g = tape.gradient(loss, w) as Tensor;
    expect(await g.tolist()).toEqual([2, 4, 6]);
    expect(await w.grad?.tolist()).toEqual([10, 10, 10]);
    expect(() => tape.gradient(loss, w)).toThrow(/non-persistent GradientTape/);
  });

  it('persistent tapes give gradients twice; non-scalar targets are summed; unrelated sources get null', async () => {
    const w = variable([1, -2], [2]);
    const other = variable([5], [1]);
    const tape = new GradientTape({ persistent: true });
    const y = ops.mul(w, 3);
    expect(await (tape.gradient(y, w) as Tensor).tolist()).toEqual([3, 3]);
    expect(await (tape.gradient(y, [w, other])[0] as Tensor).tolist()).toEqual([3, 3]);
    expect(tape.gradient(y, [w, other])[1]).toBeNull();
  });

  it('the callback form runs its body with a fresh tape', async () => {
    const w = variable([2], [1]);
    const g = GradientTape((tape) =>
      tape.gradient(ops.sum(ops.mul(ops.mul(w, w), w)), w),
    ) as Tensor;
    expect(await g.tolist()).toEqual([12]);
    expect(new GradientTape()).toBeInstanceOf(GradientTape);
  });
});
