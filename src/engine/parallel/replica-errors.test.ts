/**
 * A model that keeps a tensor where DataParallel's replica swap cannot reach it (here a Map, as a
 * cached flattened weight would be) fails on the replica device with an error naming the model
 * and the fix, not only the op's device mismatch.
 */
import { describe, expect, it } from 'vitest';
import { getDevice, gpuDevices } from '../devices/registry';
import { Linear, Module } from '../nn';
import * as ops from '../ops';
import type { Tensor } from '../tensor';
import { initTwoLogicalGpus } from '../testing/two-gpus';
import { DataParallel } from './data-parallel';

await initTwoLogicalGpus();

class CachedScale extends Module {
  declare fc: Linear;
  private readonly cache = new Map<string, Tensor>();

  constructor() {
    super();
    this.fc = new Linear(3, 2);
  }

  override forward(x: Tensor): Tensor {
    let scale = this.cache.get('scale');
    if (!scale) {
      scale = ops.full([2], 2, { device: this.fc.weight.deviceObject }).keep();
      this.cache.set('scale', scale);
    }
    return ops.mul(this.fc.forward(x) as Tensor, scale);
  }
}

describe.skipIf(gpuDevices().length < 2)('DataParallel: a model it cannot replicate', () => {
  it('names the model and says what to do', () => {
    const dp = new DataParallel(new CachedScale());
    const x = ops.randn([4, 3], { device: getDevice('gpu:0') });
    expect(() => dp.forward(x)).toThrow(
      /Expected all tensors to be on the same device.*DataParallel could not replicate CachedScale on gpu:1: .*Register it as a buffer/,
    );
  });
});
