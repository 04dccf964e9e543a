import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  decodePayload,
  encodePayload,
  fromBase64Url,
  LinkError,
  MAX_INFLATED_BYTES,
  toBase64Url,
} from './payload-codec';

const notebook = {
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { name: 'gpubook' } },
  cells: [
    {
      cell_type: 'code',
      source: 'const x = torch.rand([3]);\nprint("héllo ✓", x)',
      metadata: {},
      outputs: [],
    },
  ],
};

/** Node's own zlib + Buffer base64url: an independent implementation of the same format. */
const nodePayload = (value: unknown) =>
  deflateRawSync(Buffer.from(JSON.stringify(value), 'utf8')).toString('base64url');

describe('link payload codec', () => {
  it('round-trips a notebook, including non-ASCII text', async () => {
    expect(await decodePayload(await encodePayload(notebook))).toEqual(notebook);
  });

  it('reads what Node zlib writes, and writes what Node zlib reads', async () => {
    expect(await decodePayload(nodePayload(notebook))).toEqual(notebook);
    const ours = await encodePayload(notebook);
    const inflated = (await import('node:zlib')).inflateRawSync(Buffer.from(ours, 'base64url'));
    expect(JSON.parse(inflated.toString('utf8'))).toEqual(notebook);
  });

  it('matches Buffer base64url for every length remainder', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n * 31) & 0xff);
      expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
      expect([...fromBase64Url(toBase64Url(bytes))]).toEqual([...bytes]);
    }
  });

  const bad: Array<[string, string, RegExp]> = [
    ['empty', '', /empty/],
    ['not base64url', 'abc$%^', /base64url/],
    ['truncated', nodePayload(notebook).slice(0, 30), /truncated|damaged/],
    ['not JSON', deflateRawSync(Buffer.from('{not json', 'utf8')).toString('base64url'), /JSON/],
    ['not deflate', Buffer.from('plain text, not compressed').toString('base64url'), /damaged/],
  ];
  for (const [name, payload, message] of bad) {
    it(`rejects a payload that is ${name} with a clear LinkError`, async () => {
      const error = await decodePayload(payload).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LinkError);
      expect((error as Error).message).toMatch(message);
    });
  }

  it('stops inflating a decompression bomb at the cap', async () => {
    const bomb = deflateRawSync(Buffer.alloc(MAX_INFLATED_BYTES + 1024 * 1024, 32)).toString(
      'base64url',
    );
    expect(bomb.length).toBeLessThan(200_000);
    const error = await decodePayload(bomb).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LinkError);
    expect((error as Error).message).toMatch(/inflate past/);
  });
});
