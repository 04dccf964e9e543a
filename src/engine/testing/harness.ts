/**
 * Test harness for ops: seeded random inputs (never zero, exactly representable in float32), the
 * closeness check, and `checkOp`, which compares an op's forward with a float64 reference and its
 * gradients with central finite differences of that reference.
 */
import { expect } from 'vitest';
import type { TypedArray } from '../backend';
import { mulberry32 } from '../data/datasets/seeded-shuffle';
import type { Device } from '../devices/device';
import { fromHost } from '../ops/creation';
import { mul, sum } from '../ops';
import type { Tensor } from '../tensor';
import { dot, numericGrad, ref, type Ref } from './reference';

/** mulberry32: a small seeded PRNG, so failures reproduce (the one the datasets shuffle with). */
export const rng = mulberry32;

export type Domain = 'any' | 'positive' | 'unit';

/** Values in ±[0.1, 2] ('any'), [0.1, 2] ('positive') or ±[0.1, 0.9] ('unit'), as float32. */
export function randomValues(
  n: number,
  random: () => number,
  domain: Domain = 'any',
): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const magnitude = domain === 'unit' ? 0.1 + 0.8 * random() : 0.1 + 1.9 * random();
    const sign = domain === 'positive' || random() < 0.5 ? 1 : -1;
    out[i] = Math.fround(sign * magnitude);
  }
  return out;
}

export function randomRef(shape: number[], random: () => number, domain: Domain = 'any'): Ref {
  return ref(
    shape,
    randomValues(
      shape.reduce((a, b) => a * b, 1),
      random,
      domain,
    ),
  );
}

export function tensorOf(r: Ref, device: Device, requiresGrad = false): Tensor {
  return fromHost(Float32Array.from(r.data), r.shape, { device, requiresGrad });
}

export function intTensorOf(values: number[], shape: number[], device: Device): Tensor {
  return fromHost(Int32Array.from(values), shape, { device });
}

/** |actual - expected| <= atol + rtol*|expected| everywhere, with a message at the first miss. */
export function expectClose(
  actual: TypedArray | Float64Array,
  expected: ArrayLike<number>,
  what: string,
  rtol = 1e-4,
  atol?: number,
): void {
  expect(actual.length, `${what}: length`).toBe(expected.length);
  let scale = 0;
  for (let i = 0; i < expected.length; i++) scale = Math.max(scale, Math.abs(expected[i]));
  const abs = atol ?? 1e-5 * Math.max(1, scale);
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i];
    const e = expected[i];
    if (Number.isNaN(e) && Number.isNaN(a)) continue;
    if (!(Math.abs(a - e) <= abs + rtol * Math.abs(e))) {
      expect.fail(`${what}: element ${i} is ${a}, expected ${e} (rtol ${rtol}, atol ${abs})`);
    }
  }
}

export interface OpCase {
  /** Input shapes and domains. */
  inputs: { shape: number[]; domain?: Domain; grad?: boolean }[];
  engine: (xs: Tensor[]) => Tensor;
  reference: (rs: Ref[]) => Ref;
  /** Relative tolerance for the forward (default 1e-4) and gradients (default 1e-3). */
  rtol?: number;
  gradRtol?: number;
  seed?: number;
}

/** Forward against the reference; gradients of sum(op(x) * R) against finite differences. */
export async function checkOp(device: Device, c: OpCase, name: string): Promise<void> {
  const random = rng(c.seed ?? 1234);
  const refs = c.inputs.map((i) => randomRef(i.shape, random, i.domain));
  const wantGrad = c.inputs.map((i) => i.grad !== false);
  const xs = refs.map((r, i) => tensorOf(r, device, wantGrad[i]));
  const y = c.engine(xs);
  const expected = c.reference(refs);
  expect([...y.shape], `${name}: shape`).toEqual(expected.shape);
  expectClose(await y.data(), expected.data, `${name} forward on ${device.name}`, c.rtol ?? 1e-4);
  if (!wantGrad.some(Boolean)) return;
  const weights = randomRef(expected.shape, random);
  const loss = sum(mul(y, tensorOf(weights, device)));
  loss.backward();
  for (let i = 0; i < xs.length; i++) {
    if (!wantGrad[i]) continue;
    const numeric = numericGrad((rs) => dot(c.reference(rs), weights), refs, i);
    const grad = xs[i].grad;
    expect(grad, `${name}: input ${i} has a gradient`).not.toBeNull();
    expect([...(grad as Tensor).shape]).toEqual(refs[i].shape);
    expectClose(
      await (grad as Tensor).data(),
      numeric,
      `${name} gradient of input ${i} on ${device.name}`,
      c.gradRtol ?? 1e-3,
      1e-4 * Math.max(1, maxAbs(numeric)),
    );
  }
}

function maxAbs(values: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < values.length; i++) m = Math.max(m, Math.abs(values[i]));
  return m;
}
