/**
 * multinomial's draws on every test device: the frequencies of many draws against the weights
 * (a chi-square-like bound, seeded so the test is fixed), zero-weight categories never drawn,
 * draws without replacement distinct, and its shape and argument errors.
 */
import { describe, expect, it } from 'vitest';
import { manualSeed } from '../random';
import { testDevices } from '../testing/devices';
import { fromHost } from '.'; // the index loads the Tensor class the results are made of
import { multinomial } from './multinomial';

const devices = await testDevices();

const WEIGHTS = [
  [0, 1, 0, 3, 0, 4],
  [1, 1, 1, 1, 1, 1],
  [0, 0, 0, 0, 0, 2],
];

describe.each(devices.map((d) => [d.name, d] as const))('multinomial on %s', (_, device) => {
  const weights = fromHost(Float32Array.from(WEIGHTS.flat()), [3, 6], { device });

  it('draws each category as often as its weight says, never one of weight 0', async () => {
    manualSeed(7);
    const draws = 2000;
    const out = multinomial(weights, draws, true);
    expect(out.shape).toEqual([3, draws]);
    expect(out.dtype).toBe('int32');
    const values = await out.data();
    WEIGHTS.forEach((row, r) => {
      const total = row.reduce((s, w) => s + w, 0);
      const counts = new Array<number>(row.length).fill(0);
      for (let i = 0; i < draws; i++) counts[values[r * draws + i]]++;
      row.forEach((w, c) => {
        const p = w / total;
        if (w === 0) expect(counts[c], `row ${r} category ${c}`).toBe(0);
        // Within 5 standard deviations of the expected count.
        const sd = Math.sqrt(draws * p * (1 - p));
        expect(Math.abs(counts[c] - draws * p), `row ${r} category ${c}`).toBeLessThanOrEqual(
          5 * sd + 1,
        );
      });
    });
  });

  it('draws distinct categories without replacement, of positive weight only', async () => {
    manualSeed(3);
    const out = multinomial(weights, 2, false);
    const values = Array.from(await out.data());
    expect(new Set(values.slice(0, 2)).size).toBe(2);
    expect(values.slice(0, 2).every((c) => WEIGHTS[0][c] > 0)).toBe(true);
    expect(new Set(values.slice(2, 4)).size).toBe(2);
    // Row 3 has one positive weight: the first pick is always it.
    expect(values[4]).toBe(5);
  });

  it('takes a 1-D weight vector and gives [numSamples]', async () => {
    manualSeed(1);
    const probs = fromHost(Float32Array.from([0.1, 0, 0.9]), [3], { device });
    const out = multinomial(probs, 50, true);
    expect(out.shape).toEqual([50]);
    const values = Array.from(await out.data());
    expect(values.every((v) => v === 0 || v === 2)).toBe(true);
    expect(multinomial(probs, 1).shape).toEqual([1]);
  });

  it('refuses bad shapes and sample counts as PyTorch does', () => {
    const flat = fromHost(Float32Array.from([1, 2]), [2], { device });
    expect(() => multinomial(flat, 3, false)).toThrow(
      'cannot sample n_sample > prob_dist.size(-1) samples without replacement (3 > 2)',
    );
    expect(() => multinomial(flat, 0, true)).toThrow('cannot sample n_sample <= 0 samples');
    const cube = fromHost(new Float32Array(8).fill(1), [2, 2, 2], { device });
    expect(() => multinomial(cube, 1)).toThrow('prob_dist must be 1 or 2 dim, got shape [2, 2, 2]');
  });
});
