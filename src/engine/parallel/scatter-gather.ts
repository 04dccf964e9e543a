/**
 * Splitting a batch across devices and joining the replicas' outputs, both differentiable: scatter
 * cuts along the batch dimension as `torch.chunk` does (ceil(n / devices) rows each, so a small
 * batch may use fewer devices) and copies each slice to its device; gather copies every output to
 * one device and concatenates. The copies are enqueued, never awaited (ops/transfer.ts).
 */
import type { Device } from '../devices/device';
import { cat, narrow } from '../ops/shape-ops';
import { toDevice } from '../ops/transfer';
import { Tensor } from '../tensor';

/** Row counts of `n` rows split over `parts` devices (empty slices dropped). */
export function chunkSizes(n: number, parts: number): number[] {
  const size = Math.ceil(n / Math.max(1, parts));
  const sizes: number[] = [];
  for (let start = 0; start < n; start += size) sizes.push(Math.min(size, n - start));
  return sizes;
}

/** Slices of x along dim, slice k on devices[k]. */
export function scatter(x: Tensor, devices: readonly Device[], dim = 0): Tensor[] {
  const axis = dim < 0 ? dim + x.ndim : dim;
  if (x.ndim === 0) throw new Error('scatter: cannot split a scalar across devices');
  const sizes = chunkSizes(x.shape[axis], devices.length);
  let start = 0;
  return sizes.map((length, k) => {
    const part = narrow(x, axis, start, length);
    start += length;
    return toDevice(part, devices[k]);
  });
}

/** Every output copied to `device` and concatenated along dim. */
export function gather(outputs: readonly Tensor[], device: Device, dim = 0): Tensor {
  if (outputs.length === 0) throw new Error('gather: no outputs to gather');
  const moved = outputs.map((o) => toDevice(o, device));
  return moved.length === 1 ? moved[0] : cat(moved, dim);
}

/**
 * Splits every tensor of a structure (a tensor, or an array of tensors and other values) the
 * same way: result[k] is the structure for device k. Non-tensor values are shared by all parts.
 */
export function scatterStructure(value: unknown, devices: readonly Device[], dim = 0): unknown[] {
  if (value instanceof Tensor) return scatter(value, devices, dim);
  if (Array.isArray(value)) {
    const items = value.map((v) => (v instanceof Tensor ? scatter(v, devices, dim) : null));
    const parts = Math.min(...items.map((s) => s?.length ?? Infinity));
    if (!Number.isFinite(parts)) return [value];
    return Array.from({ length: parts }, (_, k) =>
      value.map((v, i) => (items[i] ? (items[i] as Tensor[])[k] : v)),
    );
  }
  return [value];
}

/** The inverse of scatterStructure for outputs: tensors (or arrays of them) gathered on device. */
export function gatherStructure(outputs: readonly unknown[], device: Device, dim = 0): unknown {
  const first = outputs[0];
  if (first instanceof Tensor) return gather(outputs as Tensor[], device, dim);
  if (Array.isArray(first)) {
    return first.map((_, i) =>
      gatherStructure(
        outputs.map((o) => (o as unknown[])[i]),
        device,
        dim,
      ),
    );
  }
  return first;
}
