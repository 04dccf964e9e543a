/** CPU device memory: an ArrayBuffer seen as float32 and int32, and how a kernel views a View. */
import type { DeviceBuffer, TypedArray, View } from '../../backend';

export class CpuBuffer implements DeviceBuffer {
  readonly f32: Float32Array;
  readonly i32: Int32Array;

  constructor(readonly bytes: number) {
    // Both element types are 4 bytes; round up so odd byte counts still hold whole elements.
    const memory = new ArrayBuffer(Math.ceil(bytes / 4) * 4);
    this.f32 = new Float32Array(memory);
    this.i32 = new Int32Array(memory);
  }
}

export function asCpuBuffer(buffer: DeviceBuffer): CpuBuffer {
  if (!(buffer instanceof CpuBuffer)) {
    throw new Error('CPU backend was handed a buffer that belongs to another device');
  }
  return buffer;
}

/** The typed array a view reads, in its dtype. */
export function arrayOf(view: View): TypedArray {
  const buffer = asCpuBuffer(view.buffer);
  return view.dtype === 'int32' ? buffer.i32 : buffer.f32;
}
