import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { rng } from '../../engine/testing/harness';
import { crc32, encodePngSoftware, toBase64 } from './png';

interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  rgb: Uint8Array;
}

/** An independent PNG reader for the test: chunks, CRCs (zlib's), inflate, filter 0 rows. */
function decodePng(bytes: Uint8Array): DecodedPng {
  expect([...bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let header: DataView | null = null;
  const idat: Buffer[] = [];
  const types: string[] = [];
  while (at < bytes.length) {
    const length = view.getUint32(at);
    const type = Buffer.from(bytes.subarray(at + 4, at + 8)).toString('latin1');
    const body = bytes.subarray(at + 8, at + 8 + length);
    const crc = view.getUint32(at + 8 + length);
    expect(crc).toBe(zlib.crc32(Buffer.from(bytes.subarray(at + 4, at + 8 + length))));
    types.push(type);
    if (type === 'IHDR') header = new DataView(body.buffer, body.byteOffset, body.byteLength);
    if (type === 'IDAT') idat.push(Buffer.from(body));
    at += 12 + length;
  }
  expect(types[0]).toBe('IHDR');
  expect(types[types.length - 1]).toBe('IEND');
  if (!header) throw new Error('no IHDR');
  const width = header.getUint32(0);
  const height = header.getUint32(4);
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * 3;
  expect(raw.length).toBe(height * (stride + 1));
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (stride + 1)]).toBe(0);
    rgb.set(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)), y * stride);
  }
  return { width, height, bitDepth: header.getUint8(8), colorType: header.getUint8(9), rgb };
}

describe('PNG encoding', () => {
  it('round-trips random pixels through an independent decoder (zlib inflate, zlib CRC)', async () => {
    const random = rng(11);
    const width = 37;
    const height = 23;
    const rgba = new Uint8Array(width * height * 4);
    for (let i = 0; i < rgba.length; i++) rgba[i] = i % 4 === 3 ? 255 : Math.floor(random() * 256);
    const png = await encodePngSoftware(rgba, width, height);
    const decoded = decodePng(png);
    expect(decoded).toMatchObject({ width, height, bitDepth: 8, colorType: 2 });
    for (let p = 0; p < width * height; p++) {
      for (let c = 0; c < 3; c++) expect(decoded.rgb[p * 3 + c]).toBe(rgba[p * 4 + c]);
    }
  });

  it('computes CRC-32 as zlib does', () => {
    const random = rng(5);
    const data = Uint8Array.from({ length: 1000 }, () => Math.floor(random() * 256));
    expect(crc32(data)).toBe(zlib.crc32(Buffer.from(data)));
    expect(crc32(new TextEncoder().encode('IEND'))).toBe(0xae426082);
  });

  it('base64 matches Node’s encoder on large inputs', () => {
    const random = rng(9);
    const data = Uint8Array.from({ length: 100_003 }, () => Math.floor(random() * 256));
    expect(toBase64(data)).toBe(Buffer.from(data).toString('base64'));
  });

  it('refuses a pixel buffer of the wrong size', async () => {
    await expect(encodePngSoftware(new Uint8Array(10), 2, 2)).rejects.toThrow(/RGBA/);
  });
});
