/**
 * copy_ between devices (what DataParallel's replica refresh does every step): the values arrive,
 * and the staging tensor the transfer makes is freed at once, so neither device's memory grows
 * and no step sweep has it to spill.
 */
import { describe, expect, it } from 'vitest';
import { memoryAllocated, synchronize } from '../devices/stats';
import { testDevices } from '../testing/devices';
import { copyInto } from './inplace';
import * as ops from './index';

const devices = await testDevices();
const gpu = devices.find((d) => d.kind !== 'cpu');
const cpu = devices[0];

describe.skipIf(!gpu)('copy_ across devices', () => {
  it.each([
    ['cpu → gpu', false],
    ['gpu → cpu', true],
  ])('%s frees its staging tensor', async (_name, fromGpu) => {
    if (!gpu) return;
    const [from, to] = fromGpu ? [gpu, cpu] : [cpu, gpu];
    const src = ops.fromHost(new Float32Array([1, -2, 3.5, 4, 5, 6]), [2, 3], { device: from });
    const target = ops.zeros([2, 3], { device: to });
    await synchronize(to);
    const before = [memoryAllocated(from), memoryAllocated(to)];
    for (let i = 0; i < 3; i++) copyInto(target, src);
    expect([memoryAllocated(from), memoryAllocated(to)]).toEqual(before);
    expect(Array.from(await target.data())).toEqual([1, -2, 3.5, 4, 5, 6]);
  });
});
