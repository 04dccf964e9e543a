/**
 * Parameter initialisation through the engine's seeded generator (so `manualSeed` reproduces a
 * model on any device): PyTorch's kaiming-uniform and bias bounds, and the Keras initialisers
 * (glorot-uniform, uniform, zeros) for the tf side.
 */
import type { Device } from '../devices/device';
import { full, random } from '../ops/creation';
import type { Tensor } from '../tensor';

/** PyTorch's fan-in and fan-out of a weight [out, in, *kernel]. */
export function fans(shape: readonly number[]): { fanIn: number; fanOut: number } {
  if (shape.length < 2)
    throw new Error(
      'fan in and fan out can not be computed for a tensor with fewer than 2 dimensions',
    );
  const receptive = shape.slice(2).reduce((a, b) => a * b, 1);
  return { fanIn: shape[1] * receptive, fanOut: shape[0] * receptive };
}

export function uniform(
  shape: readonly number[],
  low: number,
  high: number,
  device: Device,
): Tensor {
  return random('uniform', shape, low, high, { device });
}

export function normal(
  shape: readonly number[],
  mean: number,
  std: number,
  device: Device,
): Tensor {
  return random('normal', shape, mean, std, { device });
}

export function zeros(shape: readonly number[], device: Device): Tensor {
  return full(shape, 0, { device });
}

/**
 * kaiming_uniform_(w, a) with fan_in and leaky-relu gain √(2/(1+a²)): bound = gain·√(3/fan_in).
 * PyTorch's layers use a = √5, which makes the bound 1/√fan_in.
 */
export function kaimingUniform(
  shape: readonly number[],
  device: Device,
  a = Math.sqrt(5),
  fanIn = fans(shape).fanIn,
): Tensor {
  const gain = Math.sqrt(2 / (1 + a * a));
  const bound = gain * Math.sqrt(3 / fanIn);
  return uniform(shape, -bound, bound, device);
}

/** PyTorch's bias init for Linear/Conv: uniform(±1/√fan_in) (0 when fan_in is 0). */
export function biasUniform(shape: readonly number[], fanIn: number, device: Device): Tensor {
  const bound = fanIn > 0 ? 1 / Math.sqrt(fanIn) : 0;
  return uniform(shape, -bound, bound, device);
}

/** Keras's glorot_uniform: uniform(±√(6/(fan_in+fan_out))). */
export function glorotUniform(
  shape: readonly number[],
  fanIn: number,
  fanOut: number,
  device: Device,
): Tensor {
  const limit = Math.sqrt(6 / (fanIn + fanOut));
  return uniform(shape, -limit, limit, device);
}
