/**
 * A WebGPU backend in Node through the `webgpu` package (Dawn), for tests: one shared instance,
 * or null when no adapter exists (vitest.config.ts points Dawn at SwiftShader).
 */

import { create, globals } from 'webgpu';
import { createWebGPUBackend, type WebGPUBackend } from '../backends/webgpu';

let gpu: GPU | null = null;
let shared: Promise<WebGPUBackend | null> | null = null;

/** Requests a fresh adapter and device; each call gives an independent backend. */
export async function createNodeGpuBackend(): Promise<WebGPUBackend | null> {
  if (!gpu) {
    Object.assign(globalThis, globals);
    gpu = create([]);
  }
  const adapter = await gpu.requestAdapter();
  return adapter ? createWebGPUBackend(adapter) : null;
}

/**
 * The one Dawn instance of this process (after the first backend was created), for tests that
 * need an adapter of their own: a second instance in one process crashes Dawn.
 */
export function nodeGpu(): GPU | null {
  return gpu;
}

/** The shared test backend (created on first use). */
export function nodeGpuBackend(): Promise<WebGPUBackend | null> {
  shared ??= createNodeGpuBackend();
  return shared;
}
