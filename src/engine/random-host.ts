/**
 * Host implementation of the counter-based generator: the WebGPU backend's TypeScript twin of its
 * WGSL kernel (Philox-4x32-10), so a seed gives bit-identical uniform tensors on cpu and gpu.
 */
import type { RandomParams } from './backend';
import { randomFillReference } from './backends/webgpu/random-reference';

export function randomFillHost(out: Float32Array, params: RandomParams): void {
  randomFillReference(out, params);
}
