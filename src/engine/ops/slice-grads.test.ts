/**
 * Backward adds the gradients of many slices of one tensor into one buffer (backward.ts,
 * addSliceGrads) instead of summing zero-padded full-size copies: the values must be those of the
 * plain sum, on leaves and on intermediate tensors, with overlapping and strided slices, beside
 * other (dense) uses of the same tensor. Reference: the same sums in float64.
 */
import { describe, expect, it } from 'vitest';
import * as ops from '.';
import { testDevices } from '../testing/devices';
import { randomRef, rng, tensorOf } from '../testing/harness';

const devices = await testDevices();

describe.each(devices)('slice gradients on $name', (device) => {
  it('many selects, overlapping and strided slices and a dense use give the summed gradient', async () => {
    const rand = rng(36);
    const [T, B] = [6, 5];
    const xRef = randomRef([T, B], rand);
    const wRef = randomRef([T, B], rand);
    const x = tensorOf(xRef, device, true);
    const w = tensorOf(wRef, device);
    // An intermediate tensor (y = 3x) sliced as an RNN slices its inputs, plus the leaf itself.
    const y = ops.mul(x, 3);
    let loss = ops.sum(ops.mul(y, y)); // dense use: d/dx = 18x
    for (let t = 0; t < T; t++) {
      const step = ops.select(y, 0, t);
      loss = ops.add(loss, ops.sum(ops.mul(step, ops.select(w, 0, t)))); // + 3w
    }
    loss = ops.add(loss, ops.sum(ops.slice(x, 0, 1, 4))); // rows 1..3 + 1
    loss = ops.add(loss, ops.sum(ops.slice(x, 0, 2, 5))); // rows 2..4 + 1 (overlaps)
    loss = ops.add(loss, ops.sum(ops.mul(ops.slice(x, 1, 0, null, 2), 2))); // even cols + 2
    loss.backward();
    const got = await x.grad!.data();
    const want = new Float64Array(T * B);
    for (let t = 0; t < T; t++) {
      for (let b = 0; b < B; b++) {
        const i = t * B + b;
        want[i] = 18 * xRef.data[i] + 3 * wRef.data[i];
        if (t >= 1 && t <= 3) want[i] += 1;
        if (t >= 2 && t <= 4) want[i] += 1;
        if (b % 2 === 0) want[i] += 2;
      }
    }
    Array.from(got).forEach((v, i) => expect(v).toBeCloseTo(want[i], 4));
  });

  it('a second backward through freed slices still says the graph was freed', () => {
    const x = tensorOf(randomRef([3, 2], rng(7)), device, true);
    const loss = ops.sum(ops.select(ops.mul(x, 2), 0, 1));
    loss.backward();
    expect(() => loss.backward()).toThrow(/backward through the graph a second time/);
  });
});
