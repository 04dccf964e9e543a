/**
 * Copies between devices (`.to()`, `.cuda()`, `.cpu()`). A copy is enqueued, never awaited: the
 * source is read (at once on an idle CPU, otherwise asynchronously) and the target device fills its
 * buffer when the data arrives, ordered before any later work on it. Differentiable.
 *
 * The paths, each the fastest WebGPU allows: cpu → gpu is one `queue.writeBuffer`; gpu → cpu a
 * `copyBufferToBuffer` into a mapped (MAP_READ) staging buffer; gpu → another logical GPU (another
 * GPUDevice, whose buffers cannot be bound here, and WebGPU has no peer-to-peer copy) is that
 * staged read followed by the target's `writeBuffer`, with only the target's later work waiting.
 */
import { withGrad } from '../autograd';
import type { Device } from '../devices/device';
import type { Tensor } from '../tensor';
import { contiguous } from './shape-ops';
import { emptyTensor, inputsDevice, scoped } from './support';

export function toDevice(x: Tensor, device: Device): Tensor {
  const source = inputsDevice('to', x);
  if (source === device) return x;
  return scoped(() => {
    const src = contiguous(x);
    const out = emptyTensor(device, x.dtype, x.shape);
    const n = x.numel();
    if (n > 0) {
      const from = source.backend;
      const buffer = src.res.storage.buffer;
      const now = source.capability('syncRead')?.readSync(buffer, x.dtype, src.offset, n) ?? null;
      if (now !== null) device.backend.write(out.res.storage.buffer, now);
      else
        device.backend.writeAsync(
          out.res.storage.buffer,
          from.read(buffer, x.dtype, src.offset, n),
        );
    }
    return withGrad('ToCopyBackward0', [x], out, () => (g) => [toDevice(g, source)]);
  });
}
