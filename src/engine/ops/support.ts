/**
 * What every op needs around its kernels: checking inputs (released? same device?), kernel views of
 * tensors, fresh outputs, views sharing storage, casts, and scopes for temporaries.
 */
import type { DType, View } from '../backend';
import type { Device } from '../devices/device';
import { currentGeneration, runScoped, touch } from '../memory';
import { broadcastStrides, contiguousStrides, numel, type Shape } from '../shape';
import { Storage } from '../storage';
import type { Tensor } from '../tensor';
// The core class, not tensor.ts: that module imports the ops (its methods call them).
import { TensorBase } from '../tensor-base';

export type Operand = Tensor | number;

export function isTensor(x: unknown): x is Tensor {
  return x instanceof TensorBase;
}

export function kernelView(t: Tensor): View {
  return {
    buffer: t.res.storage.buffer,
    dtype: t.dtype,
    shape: t.shape,
    strides: t.strides,
    offset: t.offset,
  };
}

/** Reads t as if it had `shape` (numpy broadcasting; stride 0 on broadcast dims). */
export function broadcastView(t: Tensor, shape: Shape): View {
  return { ...kernelView(t), shape, strides: broadcastStrides(t.shape, t.strides, shape) };
}

/**
 * A TensorBase is a Tensor at run time: tensor.ts gives the class its methods as it loads, and
 * every entry point to the engine (its index, ops/index.ts, any `import { Tensor }`) loads it.
 */
function made(tensor: TensorBase): Tensor {
  return tensor as Tensor;
}

/** A new contiguous tensor whose memory is allocated (through the device's accounting). */
export function emptyTensor(device: Device, dtype: DType, shape: Shape): Tensor {
  const storage = Storage.allocate(device, dtype, numel(shape), currentGeneration());
  return made(new TensorBase(storage, shape, contiguousStrides(shape), 0, dtype));
}

/** A tensor sharing base's memory with another layout (no copy, no graph). */
export function viewTensor(base: Tensor, shape: Shape, strides: Shape, offset: number): Tensor {
  return made(new TensorBase(base.res.storage, shape, strides, offset, base.dtype));
}

function deviceOrder(a: Device, b: Device): string {
  // PyTorch names the accelerator first: "... devices, cuda:0 and cpu!"
  const [first, second] = a.kind === 'cpu' && b.kind !== 'cpu' ? [b, a] : [a, b];
  return `${first.name} and ${second.name}`;
}

/** Checks every tensor input is alive and on one device, marks them used, returns the device. */
export function inputsDevice(op: string, ...inputs: (Operand | null | undefined)[]): Device {
  let device: Device | null = null;
  for (const x of inputs) {
    if (!isTensor(x)) continue;
    touch(x.res);
    const d = x.res.storage.device;
    if (device === null) device = d;
    else if (d !== device) {
      throw new Error(
        `Expected all tensors to be on the same device, but found at least two devices, ` +
          `${deviceOrder(device, d)}! (in ${op})`,
      );
    }
  }
  if (device === null) throw new TypeError(`${op}: expected at least one tensor argument`);
  return device;
}

/** Int tensors where floats are needed get an error that says so. */
export function requireFloat(op: string, t: Tensor, what = 'input'): void {
  if (t.dtype !== 'float32') {
    throw new TypeError(
      `${op}: expected a float32 ${what}, got ${t.dtype}; convert it with .float() first`,
    );
  }
}

/** Runs fn in a scope: tensors it creates are released when it returns, except its result. */
export function scoped<T extends Tensor>(fn: () => T): T {
  return runScoped(fn, (result) => [result], 'tidy');
}

/** As `scoped`, keeping every tensor in a returned array (whose other entries may be null). */
export function scopedAll<T extends readonly (Tensor | null)[]>(fn: () => T): T {
  return runScoped(fn, (result) => result.filter((t): t is Tensor => t !== null), 'tidy');
}
