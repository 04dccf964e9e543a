/**
 * The seeded generator state (seed + counter) and the counter-based host generator the CPU backend
 * uses. Element i of a random tensor is a pure function of (seed, counter + i); the generator only
 * advances its counter by the number of elements, so the same seed gives the same tensor on every
 * device and no per-device stream state has to be kept in sync.
 */
import type { RandomKind, RandomParams } from './backend';
import { randomFillHost } from './random-host';

export type { RandomKind, RandomParams };

/** PyTorch's default CPU seed, so an unseeded notebook is still reproducible from a fresh kernel. */
export const DEFAULT_SEED = 67280421310721 % 2 ** 32;

export class Generator {
  private seed = DEFAULT_SEED;
  private counter = 0;

  manualSeed(seed: number): this {
    if (!Number.isFinite(seed))
      throw new TypeError(`manualSeed: seed must be a number, got ${seed}`);
    // Seeds are 32-bit on the devices; larger integers keep their low bits as Python's would.
    this.seed = ((Math.trunc(seed) % 2 ** 32) + 2 ** 32) % 2 ** 32;
    this.counter = 0;
    return this;
  }

  initialSeed(): number {
    return this.seed;
  }

  /** Claims `count` consecutive counters and returns the parameters for the kernel. */
  take(kind: RandomKind, count: number, a: number, b: number): RandomParams {
    const params: RandomParams = { kind, seed: this.seed, counter: this.counter, a, b };
    this.counter += count;
    return params;
  }
}

export const defaultGenerator = new Generator();

export function manualSeed(seed: number): Generator {
  return defaultGenerator.manualSeed(seed);
}

/** Fills a host array exactly as the WebGPU kernel fills a buffer (same bits for uniform). */
export function randomFill(out: Float32Array, params: RandomParams): void {
  randomFillHost(out, params);
}
