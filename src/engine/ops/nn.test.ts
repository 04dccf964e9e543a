import { describe, expect, it } from 'vitest';
import * as ops from '.';
import type { Tensor } from '../tensor';
import { manualSeed } from '../random';
import { testDevices } from '../testing/devices';
import { checkOp, expectClose, intTensorOf, randomRef, rng, tensorOf } from '../testing/harness';
import { numericGrad, softmax, type Ref } from '../testing/reference';

const devices = await testDevices();

function crossEntropyRef(logits: Ref, labels: number[]): number {
  const [n, c] = logits.shape;
  const logp = softmax(logits, 1, true);
  let total = 0;
  for (let i = 0; i < n; i++) total -= logp.data[i * c + labels[i]];
  return total / n;
}

describe.each(devices.map((d) => [d.name, d] as const))('nn ops on %s', (_, device) => {
  it.each([
    [[7], 0],
    [[3, 5], 1],
    [[3, 5], 0],
    [[2, 4, 33], -1],
    [[2, 3, 4], 1],
  ])('softmax and logSoftmax of %j along %i', async (shape, dim) => {
    await checkOp(
      device,
      {
        inputs: [{ shape }],
        engine: ([x]) => ops.softmax(x, dim),
        reference: ([x]) => softmax(x, dim, false),
      },
      'softmax',
    );
    await checkOp(
      device,
      {
        inputs: [{ shape }],
        engine: ([x]) => ops.logSoftmax(x, dim),
        reference: ([x]) => softmax(x, dim, true),
      },
      'logSoftmax',
    );
  });

  it('softmax stays finite for large logits', async () => {
    const x = ops.fromData([[1000, 1001, 999]], { device });
    const y = await ops.softmax(x, 1).data();
    expectClose(y, [0.24472847, 0.66524096, 0.09003057], 'softmax of large logits');
  });

  it.each([
    [4, 3],
    [7, 10],
    [1, 5],
    [33, 2],
  ])('crossEntropy of %i samples and %i classes (mean) with gradient', async (n, c) => {
    const random = rng(n * 100 + c);
    const logits = randomRef([n, c], random);
    const labels = Array.from({ length: n }, (_, i) => (i * 7 + 3) % c);
    const x = tensorOf(logits, device, true);
    const loss = ops.crossEntropy(x, intTensorOf(labels, [n], device));
    expect(loss.shape).toEqual([]);
    expectClose(await loss.data(), [crossEntropyRef(logits, labels)], 'crossEntropy forward');
    loss.backward();
    const numeric = numericGrad(([l]) => crossEntropyRef(l, labels), [logits], 0);
    expectClose(await (x.grad as Tensor).data(), numeric, 'crossEntropy gradient', 1e-3, 1e-5);
  });

  it('crossEntropy with reduction none and sum, and with probability targets', async () => {
    const random = rng(77);
    const logits = randomRef([3, 4], random);
    const labels = [1, 3, 0];
    const x = tensorOf(logits, device);
    const t = intTensorOf(labels, [3], device);
    const perSample = await ops.crossEntropy(x, t, 'none').data();
    const logp = softmax(logits, 1, true);
    expectClose(
      perSample,
      labels.map((l, i) => -logp.data[i * 4 + l]),
      'per-sample losses',
    );
    expectClose(
      await ops.crossEntropy(x, t, 'sum').data(),
      [labels.reduce((s, l, i) => s - logp.data[i * 4 + l], 0)],
      'summed loss',
    );
    const oneHot = ops.fromData(
      labels.map((l) => [0, 1, 2, 3].map((k) => (k === l ? 1 : 0))),
      { device },
    );
    expectClose(
      await ops.crossEntropy(x, oneHot).data(),
      [crossEntropyRef(logits, labels)],
      'probability targets',
    );
  });

  it('crossEntropy over extra dims and of a strided view, weighted per sample, with gradient', async () => {
    // Logits [N=2, C=4, d=3] reach the fused kernel as rows of a moved, copied view; a weighted
    // sum of the per-sample losses makes the upstream gradient differ per row.
    const random = rng(2024);
    const logits = randomRef([2, 4, 3], random);
    const labels = [3, 0, 2, 1, 1, 3];
    const weights = Array.from({ length: 6 }, () => 0.5 + random());
    const reference = (l: Ref): number => {
      let total = 0;
      for (let n = 0; n < 2; n++) {
        for (let d = 0; d < 3; d++) {
          const row = [0, 1, 2, 3].map((c) => l.data[(n * 4 + c) * 3 + d]);
          const max = Math.max(...row);
          const lse = Math.log(row.reduce((s, v) => s + Math.exp(v - max), 0)) + max;
          total += weights[n * 3 + d] * (lse - row[labels[n * 3 + d]]);
        }
      }
      return total;
    };
    const x = tensorOf(logits, device, true);
    const w = ops.fromData(weights, { device });
    const perSample = ops.crossEntropy(x, intTensorOf(labels, [2, 3], device), 'none');
    expect(perSample.shape).toEqual([2, 3]);
    const loss = ops.sum(ops.mul(ops.reshape(perSample, [6]), w));
    expectClose(await loss.data(), [reference(logits)], 'weighted loss');
    loss.backward();
    const numeric = numericGrad(([l]) => reference(l), [logits], 0);
    expectClose(await (x.grad as Tensor).data(), numeric, 'weighted gradient', 1e-3, 1e-5);

    // A transposed (non-contiguous) logits view: the kernel reads it through its strides.
    const base = randomRef([6, 5], random);
    const view = ops.transpose(tensorOf(base, device), 0, 1); // [5, 6]
    const picked = [5, 0, 3, 1, 2];
    const got = await ops.crossEntropy(view, intTensorOf(picked, [5], device), 'none').data();
    const want = picked.map((label, r) => {
      const row = [0, 1, 2, 3, 4, 5].map((c) => base.data[c * 5 + r]);
      const max = Math.max(...row);
      return Math.log(row.reduce((s, v) => s + Math.exp(v - max), 0)) + max - row[label];
    });
    expectClose(got, want, 'strided logits');
  });

  it.runIf(device.name !== 'cpu')(
    'crossEntropy gives NaN for a label out of range on a GPU (it cannot throw)',
    async () => {
      const x = tensorOf(randomRef([2, 3], rng(5)), device);
      const losses = await ops.crossEntropy(x, intTensorOf([1, 7], [2], device), 'none').data();
      expect(Number.isFinite(losses[0])).toBe(true);
      expect(Number.isNaN(losses[1])).toBe(true);
    },
  );

  it('crossEntropy names the op and the shapes on a target mismatch', () => {
    const x = ops.zeros([4, 3], { device });
    expect(() => ops.crossEntropy(x, intTensorOf([0, 1], [2], device))).toThrow(
      'crossEntropy: expected target of shape [4]',
    );
  });

  it('mseLoss is the mean squared difference, with gradients for both sides', async () => {
    await checkOp(
      device,
      {
        inputs: [{ shape: [5, 3] }, { shape: [5, 3] }],
        engine: ([a, b]) => ops.mseLoss(a, b),
        reference: ([a, b]) => {
          let s = 0;
          for (let i = 0; i < a.data.length; i++) s += (a.data[i] - b.data[i]) ** 2;
          return { shape: [], data: Float64Array.of(s / a.data.length) };
        },
      },
      'mseLoss',
    );
  });

  it('dropout zeroes about p of the elements, scales the rest by 1/(1-p), and is seeded', async () => {
    const x = ops.ones([4000], { device, requiresGrad: true });
    manualSeed(3);
    const y = ops.dropout(x, 0.25);
    const values = Array.from(await y.data());
    const zeros = values.filter((v) => v === 0).length;
    expect(zeros / 4000).toBeGreaterThan(0.21);
    expect(zeros / 4000).toBeLessThan(0.29);
    expect(values.every((v) => v === 0 || Math.abs(v - 1 / 0.75) < 1e-6)).toBe(true);
    manualSeed(3);
    expect(Array.from(await ops.dropout(ops.ones([4000], { device }), 0.25).data())).toEqual(
      values,
    );
    ops.sum(y).backward();
    expect(Array.from(await (x.grad as Tensor).data())).toEqual(values);
    expect(ops.dropout(x, 0.25, false)).toBe(x);
  });

  it('dropout2d drops whole channels', async () => {
    manualSeed(11);
    const y = await ops.dropout(ops.ones([2, 8, 3, 3], { device }), 0.5, true, true).data();
    for (let ch = 0; ch < 16; ch++) {
      const block = Array.from(y.slice(ch * 9, ch * 9 + 9));
      expect(new Set(block).size).toBe(1);
    }
  });

  it('embedding looks rows up and scatters gradients into the table (repeats add)', async () => {
    const idxValues = [3, 0, 3, 1, 4, 3];
    const indices = intTensorOf(idxValues, [2, 3], device);
    await checkOp(
      device,
      {
        inputs: [{ shape: [5, 4] }],
        engine: ([w]) => ops.embedding(indices, w),
        reference: ([w]) => {
          const data = new Float64Array(6 * 4);
          idxValues.forEach((r, i) => data.set(w.data.slice(r * 4, r * 4 + 4), i * 4));
          return { shape: [2, 3, 4], data };
        },
      },
      'embedding',
    );
  });
});

describe.each(devices.map((d) => [d.name, d] as const))('embedding padding on %s', (_, device) => {
  it('the padding row gets no gradient; every other row gets the sum of its lookups', async () => {
    const idxValues = [3, 0, 3, 1, 4, 3, 2];
    const indices = intTensorOf(idxValues, [7], device);
    const weight = ops.randn([5, 4], { device }).requiresGrad_();
    const r = ops.randn([7, 4], { device });
    ops.sum(ops.mul(ops.embedding(indices, weight, 3), r)).backward();
    const [grad, rData, w] = await Promise.all([weight.grad!.data(), r.data(), weight.data()]);
    const expected = new Float64Array(20);
    idxValues.forEach((row, i) => {
      if (row === 3) return;
      for (let d = 0; d < 4; d++) expected[row * 4 + d] += rData[i * 4 + d];
    });
    for (let i = 0; i < 20; i++) expect(grad[i]).toBeCloseTo(expected[i], 5);
    // The lookups still read the padding row's values.
    const out = await ops.embedding(indices, weight, 3).data();
    for (let d = 0; d < 4; d++) expect(out[d]).toBeCloseTo(w[12 + d], 6);
  });
});

describe('label checks where the labels can be seen (cpu)', () => {
  it('crossEntropy says which label is out of range', () => {
    const device = devices[0];
    const x = ops.zeros([3, 10], { device });
    expect(() => ops.crossEntropy(x, intTensorOf([1, 12, 3], [3], device))).toThrow(
      'crossEntropy: label 12 at position 1 is out of range for 10 classes (expected 0 to 9)',
    );
  });

  it('embedding says which index is out of range', () => {
    const device = devices[0];
    const w = ops.zeros([5, 2], { device });
    expect(() => ops.embedding(intTensorOf([0, 5], [2], device), w)).toThrow(
      'embedding: index 5 at position 1 is out of range',
    );
  });
});
