/** The WebGPU backend's DeviceBuffer: a pooled GPUBuffer plus the byte count the caller asked for. */

import type { DeviceBuffer, OutView, View } from '../../backend';

export class WebGPUBuffer implements DeviceBuffer {
  released = false;

  constructor(
    readonly bytes: number,
    readonly gpu: GPUBuffer,
  ) {}
}

/** The WebGPU buffer behind a DeviceBuffer; throws on another backend's buffer or a released one. */
export function unwrap(buffer: DeviceBuffer): WebGPUBuffer {
  if (!(buffer instanceof WebGPUBuffer)) {
    throw new Error('WebGPU backend was handed a buffer from another backend');
  }
  if (buffer.released) throw new Error('WebGPU buffer used after release');
  return buffer;
}

/** The GPUBuffer a view reads or writes. */
export function gpuOf(view: View): GPUBuffer {
  return unwrap(view.buffer).gpu;
}

/** The GPUBuffer of a kernel's output; kernels write outputs from element 0, as the contract says. */
export function outputOf(out: OutView): GPUBuffer {
  if (out.offset !== 0) throw new Error('WebGPU kernels write outputs at offset 0');
  return gpuOf(out);
}

/** A pooled scratch buffer as a DeviceBuffer, so other kernel families can read it. */
export function wrapGpu(buffer: GPUBuffer): WebGPUBuffer {
  return new WebGPUBuffer(buffer.size, buffer);
}
