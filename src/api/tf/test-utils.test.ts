/** `tf.test` on an engine without a GPU (the Python test sees the one Node's WebGPU gives). */
import { describe, expect, it } from 'vitest';
import { initEngine } from '../../engine';
import { tfTest } from './test-utils';

describe('tf.test without a GPU', () => {
  it('finds none, names none, and is not CUDA', async () => {
    await initEngine({ gpu: null });
    expect(tfTest.isGpuAvailable()).toBe(false);
    expect(tfTest.isGpuAvailable({ cudaOnly: true })).toBe(false);
    expect(tfTest.gpuDeviceName()).toBe('');
    expect(tfTest.isBuiltWithCuda()).toBe(false);
    expect(() => tfTest.isGpuAvailable({ cudaOnlyy: true })).toThrow(/cudaOnlyy/);
  });
});
