import { afterEach, describe, expect, it } from 'vitest';
import { cpu } from '../devices/registry';
import { fromHost } from '../ops/creation';
import { AccuracyCore, MeanCore, setMetricListener, type MetricReadEvent } from '.';

afterEach(() => setMetricListener(null));

function listen() {
  const reads: MetricReadEvent[] = [];
  const resets: object[] = [];
  setMetricListener({ onRead: (e) => reads.push(e), onReset: (m) => resets.push(m) });
  return { reads, resets };
}

describe('metric read events', () => {
  it('report the reads a user asks for (compute), not the internal result tensor, and resets', async () => {
    const { reads, resets } = listen();
    const mean = new MeanCore();
    mean.update(fromHost(Float32Array.from([1, 2, 6]), [3], { device: cpu() }));
    mean.resultTensor();
    expect(reads).toHaveLength(0);
    expect(await mean.compute()).toBeCloseTo(3, 6);
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ metric: mean, name: null, kind: 'mean', training: false });
    // The listener's own tensor holds the same value, whatever the user does with theirs.
    const own = reads[0].value();
    expect((await own.data())[0]).toBeCloseTo(3, 6);
    own.dispose();
    mean.reset();
    expect(resets).toEqual([mean]);
  });

  it('say whether the last update was a training step (predictions that require grad)', () => {
    const { reads } = listen();
    const acc = new AccuracyCore({ numClasses: 3 });
    const scores = fromHost(Float32Array.from([0.1, 0.7, 0.2, 0.5, 0.3, 0.2]), [2, 3], {
      device: cpu(),
    });
    const labels = fromHost(Int32Array.from([1, 2]), [2], { device: cpu() });
    acc.update(scores.detach().requiresGrad_(), labels);
    acc.computeTensor();
    acc.update(scores, labels);
    acc.computeTensor();
    expect(reads.map((r) => [r.kind, r.training])).toEqual([
      ['acc', true],
      ['acc', false],
    ]);
  });
});
