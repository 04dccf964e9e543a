/**
 * Host implementation of the counter-based generator. It must match the WGSL generator bit for bit
 * (uniform), so once the WebGPU backend's `random-reference.ts` exists this file only forwards to
 * it; until then it holds a local hash so the CPU backend works on its own.
 */
import type { RandomParams } from './backend';

/** A 32-bit integer mix (lowbias32 by Chris Wellons): every input bit affects every output bit. */
function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** 24 random bits → a float32-exact value in [0, 1). */
function uniformBits(seed: number, index: number): number {
  const lo = index >>> 0;
  const hi = Math.floor(index / 2 ** 32) >>> 0;
  const h = mix32(mix32(lo ^ mix32(seed ^ 0x9e3779b9)) ^ mix32(hi + 0x85ebca6b));
  return (h >>> 8) / 16777216;
}

export function randomFillHost(out: Float32Array, params: RandomParams): void {
  const { seed, counter, a, b } = params;
  if (params.kind === 'uniform') {
    const scale = b - a;
    for (let i = 0; i < out.length; i++) out[i] = a + scale * uniformBits(seed, counter + i);
    return;
  }
  // Box–Muller on two uniforms drawn from two independent streams of the same counter.
  for (let i = 0; i < out.length; i++) {
    const u1 = 1 - uniformBits(seed, counter + i); // (0, 1]: log stays finite
    const u2 = uniformBits(seed ^ 0x5bd1e995, counter + i);
    out[i] = a + b * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }
}
