import { describe, expect, it } from 'vitest';
import { formatMegabytes, parseDataIndex, totalBytes } from './offline-data';

describe('data index for "make all chapter data available offline"', () => {
  it('reads the files and bytes scripts/build-data.mjs lists, and adds them up', () => {
    const files = parseDataIndex({
      format: 1,
      fingerprint: 'x',
      files: [
        { path: 'mnist/manifest.json', bytes: 1251 },
        { path: 'sotu/tokens.bin.gz', bytes: 2_245_721 },
      ],
    });
    expect(files).toEqual([
      { path: 'mnist/manifest.json', bytes: 1251 },
      { path: 'sotu/tokens.bin.gz', bytes: 2_245_721 },
    ]);
    expect(formatMegabytes(totalBytes(files ?? []))).toBe('2.2 MB');
  });

  it('refuses anything else', () => {
    for (const bad of [
      null,
      {},
      { files: [] },
      { files: [{ path: 'a', bytes: -1 }] },
      { files: [{ path: '../secret', bytes: 1 }] },
      { files: [{ path: '/abs', bytes: 1 }] },
      { files: [{ bytes: 1 }] },
    ]) {
      expect(parseDataIndex(bad)).toBeNull();
    }
  });
});
