import { describe, expect, it } from 'vitest';
import { testDevices } from '../engine/testing/devices';
import { tf } from './tf';

const devices = await testDevices();
const hasGpu = devices.length > 1;
const defaultName = hasGpu ? 'gpu:0' : 'cpu';

describe('tf tensors', () => {
  it('constants go to gpu:0 when there is one, and tf.device moves the default', async () => {
    const c = tf.constant([
      [1, 2],
      [3, 4],
    ]);
    expect(c.device).toBe(defaultName);
    expect(await c.tolist()).toEqual([
      [1, 2],
      [3, 4],
    ]);
    const onCpu = tf.device('/cpu:0', () => tf.constant([1]));
    expect(onCpu.device).toBe('cpu');
    const asyncBody = await tf.device('/CPU:0', async () => {
      await Promise.resolve();
      return tf.random.uniform([2]);
    });
    expect(asyncBody.device).toBe('cpu');
    expect(tf.constant(5, 'int32', [2, 2]).dtype).toBe('int32');
    expect(await tf.constant(5, { shape: [3] }).tolist()).toEqual([5, 5, 5]);
  });

  it('cast, matmul (with transposes) and reduceSum', async () => {
    const a = tf.constant([
      [1, 2],
      [3, 4],
    ]);
    expect(tf.cast(tf.constant([1.7, -1.7]), 'int32').dtype).toBe('int32');
    expect(await tf.matmul(a, a).tolist()).toEqual([
      [7, 10],
      [15, 22],
    ]);
    expect(await tf.matmul(a, a, { transposeA: true }).tolist()).toEqual([
      [10, 14],
      [14, 20],
    ]);
    expect(await tf.reduceSum(a).item()).toBe(10);
    expect(await tf.reduceSum(a, 1).tolist()).toEqual([3, 7]);
    expect(await tf.reduceSum(a, { axis: 0, keepdims: true }).tolist()).toEqual([[4, 6]]);
  });

  it('random.uniform and normal are seeded by tf.random.setSeed', async () => {
    tf.random.setSeed(4);
    const u = await tf.random.uniform([100], { minval: 2, maxval: 3 }).tolist();
    tf.random.setSeed(4);
    expect(await tf.random.uniform([100], 2, 3).tolist()).toEqual(u);
    expect((u as number[]).every((v) => v >= 2 && v < 3)).toBe(true);
    const n = tf.random.normal([10], { mean: 5, stddev: 0.1 });
    expect([...n.shape]).toEqual([10]);
  });
});
