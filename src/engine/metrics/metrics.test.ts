import { describe, expect, it } from 'vitest';
import { fromHost } from '../ops/creation';
import { testDevices } from '../testing/devices';
import { expectClose, randomValues, rng } from '../testing/harness';
import { AccuracyCore, MeanCore } from '.';

const devices = await testDevices();

/** Scores [n, c] and labels drawn from a seeded generator. */
function problem(n: number, c: number, seed: number): { scores: number[]; labels: number[] } {
  const random = rng(seed);
  const scores = Array.from(randomValues(n * c, random));
  const labels = Array.from({ length: n }, () => Math.floor(random() * c));
  return { scores, labels };
}

/** Hand counts: micro top-k accuracy and macro (mean per-class recall over seen classes). */
function handAccuracy(
  scores: number[],
  labels: number[],
  c: number,
  k: number,
): { micro: number; macro: number } {
  const n = labels.length;
  const tp = new Array<number>(c).fill(0);
  const support = new Array<number>(c).fill(0);
  const predicted = new Array<number>(c).fill(0);
  let correct = 0;
  for (let i = 0; i < n; i++) {
    const row = scores.slice(i * c, i * c + c);
    const y = labels[i];
    const above = row.filter((s) => s > row[y]).length;
    const hit = above < k;
    const top = row.indexOf(Math.max(...row));
    support[y]++;
    predicted[top]++;
    if (hit) {
      correct++;
      tp[y]++;
    }
  }
  let sum = 0;
  let seen = 0;
  for (let j = 0; j < c; j++) {
    if (support[j] + predicted[j] - tp[j] > 0) {
      sum += support[j] ? tp[j] / support[j] : 0;
      seen++;
    }
  }
  return { micro: correct / n, macro: sum / seen };
}

describe.each(devices.map((d) => [d.name, d] as const))('metrics on %s', (_, device) => {
  const batch = (scores: number[], labels: number[], c: number) =>
    [
      fromHost(Float32Array.from(scores), [labels.length, c], { device }),
      fromHost(Int32Array.from(labels), [labels.length], { device }),
    ] as const;

  it('multiclass accuracy (micro, top-1) accumulates over batches and matches hand counts', async () => {
    const a = problem(13, 5, 1);
    const b = problem(9, 5, 2);
    const acc = new AccuracyCore({ task: 'multiclass', numClasses: 5 });
    const first = acc(...batch(a.scores, a.labels, 5));
    expectClose(await first.data(), [handAccuracy(a.scores, a.labels, 5, 1).micro], 'batch value');
    acc.update(...batch(b.scores, b.labels, 5));
    const all = handAccuracy([...a.scores, ...b.scores], [...a.labels, ...b.labels], 5, 1).micro;
    expect(await acc.compute()).toBeCloseTo(all, 6);
    acc.reset();
    acc.update(...batch(b.scores, b.labels, 5));
    expect(await acc.compute()).toBeCloseTo(handAccuracy(b.scores, b.labels, 5, 1).micro, 6);
  });

  it('macro accuracy is the mean recall over classes seen', async () => {
    const p = problem(40, 6, 3);
    const acc = new AccuracyCore({ numClasses: 6, average: 'macro' });
    acc.update(...batch(p.scores.slice(0, 120), p.labels.slice(0, 20), 6));
    acc.update(...batch(p.scores.slice(120), p.labels.slice(20), 6));
    expect(await acc.compute()).toBeCloseTo(handAccuracy(p.scores, p.labels, 6, 1).macro, 6);
  });

  it('top-k accuracy counts a hit when fewer than k scores beat the label', async () => {
    const p = problem(30, 8, 4);
    const acc = new AccuracyCore({ numClasses: 8, topK: 3 });
    acc.update(...batch(p.scores, p.labels, 8));
    expect(await acc.compute()).toBeCloseTo(handAccuracy(p.scores, p.labels, 8, 3).micro, 6);
  });

  it('binary accuracy thresholds probabilities', async () => {
    const probs = fromHost(Float32Array.from([0.1, 0.7, 0.5, 0.49, 0.9]), [5], { device });
    const labels = fromHost(Float32Array.from([0, 1, 0, 0, 0]), [5], { device });
    const acc = new AccuracyCore({ task: 'binary' });
    acc.update(probs, labels);
    expect(await acc.compute()).toBeCloseTo(3 / 5, 6);
  });

  it('Mean is a weighted running mean of tensors and numbers', async () => {
    const m = new MeanCore();
    m.update(fromHost(Float32Array.from([1, 2, 3]), [3], { device }));
    m.update(10);
    expect(await m.compute()).toBeCloseTo(16 / 4, 6);
    m.update(
      fromHost(Float32Array.from([4, 8]), [2], { device }),
      fromHost(Float32Array.from([1, 3]), [2], { device }),
    );
    expect(await m.compute()).toBeCloseTo((16 + 4 + 24) / 8, 5);
    m.reset();
    expect(await m.compute()).toBe(0);
  });
});

describe('metric errors', () => {
  it('says when labels are out of range and when nothing was updated', async () => {
    const device = devices[0];
    const acc = new AccuracyCore({ numClasses: 3 });
    await expect(acc.compute()).rejects.toThrow('compute() was called before update()');
    const scores = fromHost(new Float32Array(6), [2, 3], { device });
    expect(() => acc.update(scores, fromHost(Int32Array.from([0, 3]), [2], { device }))).toThrow(
      /target 3 at position 1 is out of range for 3 classes/,
    );
  });
});
