import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gunzip, gunzipIfNeeded, isGzip } from './gunzip';
import { mulberry32 } from './seeded-shuffle';

function randomBytes(n: number, seed: number): Uint8Array {
  const random = mulberry32(seed);
  // Skewed values so that deflate has something to compress, as in real files.
  return Uint8Array.from({ length: n }, () => Math.floor(random() ** 3 * 256));
}

describe('gunzip', () => {
  it('inflates what Node zlib deflated, at several sizes', async () => {
    for (const n of [0, 1, 1000, 300_000]) {
      const plain = randomBytes(n, n + 1);
      const packed = new Uint8Array(gzipSync(plain));
      expect(isGzip(packed)).toBe(true);
      expect(Buffer.compare(await gunzip(packed), plain)).toBe(0);
      expect(Buffer.compare(await gunzipIfNeeded(packed), plain)).toBe(0);
    }
  });

  it('passes data without the gzip magic through unchanged', async () => {
    const plain = Uint8Array.from([0, 0, 8, 3, 1, 2, 3]);
    expect(isGzip(plain)).toBe(false);
    expect(await gunzipIfNeeded(plain)).toBe(plain);
  });

  it('rejects corrupt and truncated files', async () => {
    const packed = new Uint8Array(gzipSync(randomBytes(5000, 9)));
    const corrupt = packed.slice();
    corrupt[packed.length - 3] ^= 0xff; // inside the length/CRC trailer
    await expect(gunzip(corrupt)).rejects.toThrow();
    await expect(gunzip(packed.subarray(0, packed.length >> 1))).rejects.toThrow();
  });
});
