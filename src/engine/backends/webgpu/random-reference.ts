/**
 * The counter-based generator of kernels/random.wgsl in TypeScript (Philox-4x32-10): the CPU
 * backend calls these so a seed gives bit-identical uniform tensors on every device.
 */

import type { RandomParams } from '../../backend';

const M0 = 0xd2511f53;
const M1 = 0xcd9e8d57;
const W0 = 0x9e3779b9;
const W1 = 0xbb67ae85;
const TWO_POW_32 = 2 ** 32;
const TWO_POW_MINUS_24 = 2 ** -24;

/** High word of the 64-bit product of two u32s (the low word is Math.imul). */
function mulHi(a: number, b: number): number {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const p11 = a1 * b1;
  const middle = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  return (p11 + (p01 >>> 16) + (p10 >>> 16) + (middle >>> 16)) >>> 0;
}

/** Philox-4x32-10 of a 128-bit counter and 64-bit key, all as u32 words. */
export function philox4x32(
  counter: readonly [number, number, number, number],
  key: readonly [number, number],
): [number, number, number, number] {
  let [c0, c1, c2, c3] = counter.map((w) => w >>> 0);
  let k0 = key[0] >>> 0;
  let k1 = key[1] >>> 0;
  for (let round = 0; round < 10; round++) {
    if (round > 0) {
      k0 = (k0 + W0) >>> 0;
      k1 = (k1 + W1) >>> 0;
    }
    const hi0 = mulHi(M0, c0);
    const lo0 = Math.imul(M0, c0) >>> 0;
    const hi1 = mulHi(M1, c2);
    const lo1 = Math.imul(M1, c2) >>> 0;
    [c0, c1, c2, c3] = [(hi1 ^ c1 ^ k0) >>> 0, lo1, (hi0 ^ c3 ^ k1) >>> 0, lo0];
  }
  return [c0, c1, c2, c3];
}

/** Low and high u32 words of a non-negative integer below 2^53 (negative seeds wrap mod 2^64). */
function words64(value: number): [number, number] {
  const integer = Math.floor(value);
  return [integer >>> 0, Math.floor(integer / TWO_POW_32) >>> 0];
}

/** The Philox block of stream position g: words of block g / 4, keyed by the seed. */
function block(
  seedWords: readonly [number, number],
  position: number,
): [number, number, number, number] {
  const index = Math.floor(position / 4);
  return philox4x32([index >>> 0, Math.floor(index / TWO_POW_32) >>> 0, 0, 0], seedWords);
}

/** cos(2 pi t) exactly as kernels/random.wgsl evaluates it (its Taylor form, here in float64). */
function cos2pi(t: number): number {
  const x = Math.abs(t - Math.round(t));
  const flip = x > 0.25;
  const a = 2 * Math.PI * (flip ? 0.5 - x : x);
  const c = Math.cos(a);
  return flip ? -c : c;
}

const unit = (word: number): number => (word >>> 8) * TWO_POW_MINUS_24;

/**
 * Fills `out` from stream positions counter + i exactly as the WebGPU `random` kernel does:
 * position g reads word g % 4 of the Philox block of g / 4. Uniform values are bit-identical
 * (u = (word >> 8) * 2^-24 is exact, and a + (b - a) * u is rounded to float32 after each
 * operation as WGSL does). Normal values (Box-Muller on word pairs) agree to ~1e-6: log and sqrt
 * round differently on each device.
 */
export function randomFillReference(out: Float32Array, params: RandomParams): void {
  const seedWords = words64(params.seed);
  const counter = Math.floor(params.counter);
  const fa = Math.fround(params.a);
  const fb = Math.fround(params.b);
  const span = Math.fround(fb - fa);
  const normal = params.kind === 'normal';
  let words: [number, number, number, number] = [0, 0, 0, 0];
  for (let i = 0; i < out.length; i++) {
    const position = counter + i;
    const lane = position % 4;
    if (i === 0 || lane === 0) words = block(seedWords, position);
    if (!normal) {
      out[i] = fa + Math.fround(span * unit(words[lane]));
      continue;
    }
    const pair = lane < 2 ? 0 : 2;
    const radius = Math.sqrt(-2 * Math.log(unit(words[pair]) + TWO_POW_MINUS_24));
    const angle = unit(words[pair + 1]);
    const z = radius * cos2pi(lane % 2 === 0 ? angle : angle - 0.25);
    out[i] = fa + fb * z;
  }
}
