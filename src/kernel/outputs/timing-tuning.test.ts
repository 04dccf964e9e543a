/**
 * `measure` (under `timeit` and `compareDevices`) on the real WebGPU backend: the warm-ups start
 * the tuning runs of the shape classes the runs use, so none lands in a timed run, and the
 * notebook's tuning policy is back afterwards.
 */
import { describe, expect, it } from 'vitest';
import { ops, synchronize, type Tensor } from '../../engine';
import type { WebGPUBackend } from '../../engine/backends/webgpu';
import { rng } from '../../engine/testing/harness';
import { testDevices } from '../../engine/testing/devices';
import { measure } from './timing';

const gpu = (await testDevices()).find((d) => d.kind === 'gpu');

describe.skipIf(!gpu)('measure on WebGPU', () => {
  it('tunes in the warm-ups, so no timed run carries a tuning run; the policy returns after', async () => {
    const device = gpu!;
    const log = (device.realBackend as WebGPUBackend).context.tuneLog;
    const random = rng(19);
    const matrix = (rows: number, cols: number) => {
      const values = Float32Array.from({ length: rows * cols }, () => random() - 0.5);
      return { values, tensor: ops.fromHost(values, [rows, cols], { device }) };
    };
    const [m, k, n] = [128, 96, 160];
    const a = matrix(m, k);
    const b = matrix(k, n);
    const before = log.length;
    const seen: number[] = [];
    const products: Tensor[] = [];
    await measure(
      () => {
        seen.push(log.length);
        products.push(a.tensor.matmul(b.tensor));
      },
      { warmup: 1, repeat: 3, sync: () => synchronize(device) },
    );
    // The warm-up tuned the product's class; each timed run started with the log as it left it.
    const afterWarmUp = seen[1];
    expect(seen[0]).toBe(before);
    expect(log.slice(before, afterWarmUp).map((run) => run.key.split('|')[0])).toContain('mm');
    expect(seen.slice(1)).toEqual([afterWarmUp, afterWarmUp, afterWarmUp]);
    expect(log.length).toBe(afterWarmUp);
    // What the tuned kernel computed, against a float64 product.
    const got = await products[products.length - 1].data();
    for (const [i, j] of [
      [0, 0],
      [m - 1, n - 1],
      [37, 101],
      [90, 3],
    ]) {
      let want = 0;
      for (let p = 0; p < k; p++) want += a.values[i * k + p] * b.values[p * n + j];
      expect(got[i * n + j]).toBeCloseTo(want, 4);
    }
    // The notebook's policy again: one product of a new class runs its default and tunes nothing.
    const c = matrix(40, 24);
    const d = matrix(24, 56);
    c.tensor.matmul(d.tensor);
    await synchronize(device);
    await device.capability('tuning')?.tuned();
    expect(log.length).toBe(afterWarmUp);
  });
});
