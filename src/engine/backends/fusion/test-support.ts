/** What the fusion tests share: running ops with fusion on or off and counting their kernels. */
import type { Device } from '../../devices/device';
import type { Tensor } from '../../tensor';
import { dispatches } from '../../testing/devices';
import { setFusion } from './flag';

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
