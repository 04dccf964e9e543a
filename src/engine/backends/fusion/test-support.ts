/**
 * What the fusion tests share: running ops with fusion on or off and counting their kernels, and
 * putting the fusion flag back after each test.
 */
import { afterEach } from 'vitest';
import type { Device } from '../../devices/device';
import type { Tensor } from '../../tensor';
import { dispatches } from '../../testing/devices';
import { WebGPUBackend } from '../webgpu';
import { fusionEnabled, setFusion } from './flag';

/**
 * After each test of the file: fusion on or off as it was when the file started, and no reduce
 * row mode forced on the WebGPU backends of `devices`.
 */
export function restoreAfterEach(devices: readonly Device[] = []): void {
  const initial = fusionEnabled();
  afterEach(() => {
    setFusion(initial);
    for (const device of devices) {
      const backend = device.realBackend;
      if (backend instanceof WebGPUBackend) backend.overrides.reduce = undefined;
    }
  });
}

/** `fn`'s results (read back, then disposed) with fusion on or off, and the kernels it ran. */
export async function runCounted(device: Device, fused: boolean, fn: () => Tensor[]) {
  setFusion(fused);
  await device.backend.synchronize();
  const before = dispatches(device);
  const outs = fn();
  const values = await Promise.all(outs.map((t) => t.data() as Promise<Float32Array>));
  const kernels = dispatches(device) - before;
  for (const t of outs) t.dispose();
  return { values, kernels };
}
