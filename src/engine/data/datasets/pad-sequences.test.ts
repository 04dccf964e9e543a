import { describe, expect, it } from 'vitest';
import { padSequences } from './pad-sequences';
import { mulberry32 } from './seeded-shuffle';

const seqs = [[1, 2, 3], [4, 5], [6, 7, 8, 9, 10], []];
const rows = (data: Int32Array, width: number): number[][] =>
  Array.from({ length: data.length / width }, (_, r) =>
    Array.from(data.subarray(r * width, (r + 1) * width)),
  );

describe('padSequences', () => {
  it('pads and truncates at the start by default, as Keras does', () => {
    const { data, shape } = padSequences(seqs, { maxlen: 4 });
    expect(shape).toEqual([4, 4]);
    expect(rows(data, 4)).toEqual([
      [0, 1, 2, 3],
      [0, 0, 4, 5],
      [7, 8, 9, 10],
      [0, 0, 0, 0],
    ]);
  });

  it('pads at the end with padding post', () => {
    const { data } = padSequences(seqs, { maxlen: 4, padding: 'post' });
    expect(rows(data, 4)).toEqual([
      [1, 2, 3, 0],
      [4, 5, 0, 0],
      [7, 8, 9, 10],
      [0, 0, 0, 0],
    ]);
  });

  it('cuts the end with truncating post', () => {
    const { data } = padSequences(seqs, { maxlen: 4, truncating: 'post' });
    expect(rows(data, 4)).toEqual([
      [0, 1, 2, 3],
      [0, 0, 4, 5],
      [6, 7, 8, 9],
      [0, 0, 0, 0],
    ]);
    const both = padSequences(seqs, { maxlen: 2, padding: 'post', truncating: 'post' });
    expect(rows(both.data, 2)).toEqual([
      [1, 2],
      [4, 5],
      [6, 7],
      [0, 0],
    ]);
  });

  it('defaults maxlen to the longest sequence and honours value', () => {
    const { data, shape } = padSequences([Int32Array.of(3), [1, 2, 3]], { value: -1 });
    expect(shape).toEqual([2, 3]);
    expect(Array.from(data)).toEqual([-1, -1, 3, 1, 2, 3]);
    expect(padSequences([]).shape).toEqual([0, 0]);
    expect(Array.from(padSequences(seqs, { maxlen: 0 }).data)).toEqual([]);
  });

  it('agrees with a slice-and-concatenate reference on random ragged input', () => {
    const random = mulberry32(42);
    const input = Array.from({ length: 50 }, () =>
      Array.from({ length: Math.floor(random() * 12) }, () => 1 + Math.floor(random() * 1000)),
    );
    for (const padding of ['pre', 'post'] as const) {
      for (const truncating of ['pre', 'post'] as const) {
        const maxlen = 6;
        const { data } = padSequences(input, { maxlen, padding, truncating, value: 7 });
        const expected = input.map((s) => {
          const kept =
            s.length <= maxlen ? s : truncating === 'pre' ? s.slice(-maxlen) : s.slice(0, maxlen);
          const fill = new Array<number>(maxlen - kept.length).fill(7);
          return padding === 'pre' ? [...fill, ...kept] : [...kept, ...fill];
        });
        expect(rows(data, maxlen)).toEqual(expected);
      }
    }
  });

  it('rejects unknown options', () => {
    // @ts-expect-error: checking the run-time guard for callers without types
    expect(() => padSequences(seqs, { padding: 'middle' })).toThrow(/padding/);
    // @ts-expect-error: as above
    expect(() => padSequences(seqs, { truncating: 'both' })).toThrow(/truncating/);
    expect(() => padSequences(seqs, { maxlen: -1 })).toThrow(/maxlen/);
  });
});
