/** Parser for the IDX format of the MNIST files (big-endian dimensions, then unsigned bytes). */

export interface IdxArray {
  dims: number[];
  data: Uint8Array;
}

/** Parses an unsigned-byte IDX file, checking the magic number, dimension count and length. */
export function parseIdxUbyte(bytes: Uint8Array, expectedDims: number, name: string): IdxArray {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Magic: two zero bytes, type 0x08 (unsigned byte), number of dimensions.
  if (bytes.length < 4 || view.getUint16(0) !== 0 || bytes[2] !== 0x08) {
    throw new Error(`${name}: not an unsigned-byte IDX file`);
  }
  if (bytes[3] !== expectedDims) {
    throw new Error(`${name}: expected ${expectedDims} dimensions, found ${bytes[3]}`);
  }
  const headerBytes = 4 + 4 * expectedDims;
  if (bytes.length < headerBytes) throw new Error(`${name}: truncated header`);
  const dims: number[] = [];
  for (let d = 0; d < expectedDims; d++) dims.push(view.getUint32(4 + 4 * d));
  const size = dims.reduce((a, b) => a * b, 1);
  if (bytes.length !== headerBytes + size) {
    throw new Error(`${name}: ${bytes.length - headerBytes} data bytes, expected ${size}`);
  }
  return { dims, data: bytes.subarray(headerBytes) };
}
