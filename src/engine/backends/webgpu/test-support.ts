/**
 * Helpers for the WebGPU kernel tests: seeded random inputs, strided views over uploaded data,
 * float64 reference indexing, and tolerance checks. Test-only; nothing here runs in the app.
 */

import { afterEach, describe, expect } from 'vitest';
import type { DType, DeviceBuffer, View } from '../../backend';
import { contiguousStrides as rowMajor, numel as product } from '../../shape';
import type { KernelOverrides, WebGPUBackend } from './index';

/** A small seeded generator (mulberry32), so failures reproduce. */
export { mulberry32 as rng } from '../../data/datasets/seeded-shuffle';

/** Non-zero values in ±[0.1, 2), rounded to float32 (what the device will hold). */
export function randomFloats(n: number, random: () => number, low = 0.1, high = 2): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const magnitude = low + (high - low) * random();
    out[i] = random() < 0.5 ? -magnitude : magnitude;
  }
  return out;
}

/** Non-zero integers in ±[1, limit]. */
export function randomInts(n: number, random: () => number, limit = 50): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const magnitude = 1 + Math.floor(random() * limit);
    out[i] = random() < 0.5 ? -magnitude : magnitude;
  }
  return out;
}

/** Element count and row-major strides of a shape: the engine's own shape arithmetic. */
export { product, rowMajor };

/** Calls fn for every multi-index of shape in row-major order, with its flat position. */
export function forEachIndex(
  shape: readonly number[],
  fn: (index: number[], flat: number) => void,
): void {
  const n = product(shape);
  const index = new Array<number>(shape.length).fill(0);
  for (let flat = 0; flat < n; flat++) {
    fn(index, flat);
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}

/** A host copy of a device buffer and a strided view over both. */
export interface HostView {
  readonly view: View;
  readonly host: Float32Array | Int32Array;
}

/** Element of `host` at a multi-index of `view`. */
export function at(hv: HostView, index: readonly number[]): number {
  let offset = hv.view.offset;
  for (let d = 0; d < index.length; d++) offset += index[d] * hv.view.strides[d];
  return hv.host[offset];
}

/** Allocates, uploads and tracks buffers so a test can release them all. */
export class Workspace {
  private readonly buffers: DeviceBuffer[] = [];

  constructor(readonly backend: WebGPUBackend) {}

  /** Uploads `host` and returns a view with the given layout (row-major by default). */
  view(
    host: Float32Array | Int32Array,
    shape: readonly number[],
    strides: readonly number[] = rowMajor(shape),
    offset = 0,
  ): HostView {
    const buffer = this.backend.allocate(host.byteLength);
    this.backend.write(buffer, host);
    this.buffers.push(buffer);
    const dtype: DType = host instanceof Int32Array ? 'int32' : 'float32';
    return { host, view: { buffer, dtype, shape, strides, offset } };
  }

  /** A contiguous output view. */
  output(dtype: DType, shape: readonly number[]): View {
    const buffer = this.backend.allocate(Math.max(1, product(shape)) * 4);
    this.buffers.push(buffer);
    return { buffer, dtype, shape, strides: rowMajor(shape), offset: 0 };
  }

  async read(view: View): Promise<Float32Array | Int32Array> {
    return this.backend.read(view.buffer, view.dtype, view.offset, product(view.shape));
  }

  releaseAll(): void {
    for (const buffer of this.buffers.splice(0)) this.backend.release(buffer);
  }
}

/**
 * A suite of kernel tests on the shared test backend, skipped where Node has no WebGPU adapter:
 * `body` gets the backend and a Workspace whose buffers are released after each test, and the
 * kernel overrides named in `overrides` are cleared after each test too.
 */
export function describeKernels(
  name: string,
  backend: WebGPUBackend | null,
  body: (gpu: WebGPUBackend, ws: Workspace) => void,
): void;
export function describeKernels(
  name: string,
  backend: WebGPUBackend | null,
  overrides: readonly (keyof KernelOverrides)[],
  body: (gpu: WebGPUBackend, ws: Workspace) => void,
): void;
export function describeKernels(
  name: string,
  backend: WebGPUBackend | null,
  ...rest:
    | [body: (gpu: WebGPUBackend, ws: Workspace) => void]
    | [
        overrides: readonly (keyof KernelOverrides)[],
        body: (gpu: WebGPUBackend, ws: Workspace) => void,
      ]
): void {
  const [overrides, body] = rest.length === 1 ? [[], rest[0]] : rest;
  describe.skipIf(!backend)(name, () => {
    const gpu = backend as WebGPUBackend;
    const ws = new Workspace(gpu);
    afterEach(() => {
      ws.releaseAll();
      for (const key of overrides) gpu.overrides[key] = undefined;
    });
    body(gpu, ws);
  });
}

/**
 * Checks `actual` against a float64 reference within |a - e| <= abs + rel * |e| per element, and
 * reports the first mismatch with its index.
 */
export function expectClose(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  tolerance: { rel?: number; abs?: number } = {},
): void {
  const rel = tolerance.rel ?? 1e-5;
  const abs = tolerance.abs ?? 1e-6;
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i];
    const e = expected[i];
    if (Number.isNaN(e) && Number.isNaN(a)) continue;
    if (e === a) continue;
    const error = Math.abs(a - e);
    if (!(error <= abs + rel * Math.abs(e))) {
      expect.fail(`element ${i}: got ${a}, expected ${e} (error ${error})`);
    }
  }
}

/** Checks exact equality, reporting the first mismatch with its index. */
export function expectEqual(actual: ArrayLike<number>, expected: ArrayLike<number>): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    if (!Object.is(actual[i], expected[i]) && actual[i] !== expected[i]) {
      expect.fail(`element ${i}: got ${actual[i]}, expected ${expected[i]}`);
    }
  }
}
