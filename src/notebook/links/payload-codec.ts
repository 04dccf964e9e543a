/**
 * The `#nb=` payload of a shared link (shared/TESTING.md): base64url, no padding, of the raw
 * DEFLATE of the UTF-8 JSON of a notebook. Decoding is defensive: every way a link can be broken
 * (empty, not base64url, truncated, not JSON, too large once inflated) becomes a LinkError with a
 * message a user can act on, and inflation stops at a byte cap so a decompression bomb cannot
 * exhaust memory.
 */

/** Past this many characters, links break in chat apps and some browsers. */
export const COMFORTABLE_LINK_CHARS = 8_000;
/** The largest payload we try to read at all. */
export const MAX_PAYLOAD_CHARS = 4_000_000;
/** The most bytes a payload may inflate to (a notebook with outputs is rarely above a few MB). */
export const MAX_INFLATED_BYTES = 32 * 1024 * 1024;

export class LinkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LinkError';
  }
}

export async function encodePayload(value: unknown): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(value));
  const compressed = await pipeThrough(json, new CompressionStream('deflate-raw'));
  return toBase64Url(compressed);
}

export async function decodePayload(payload: string): Promise<unknown> {
  const text = payload.trim();
  if (text.length === 0)
    throw new LinkError('The link carries no notebook (the #nb= part is empty).');
  if (text.length > MAX_PAYLOAD_CHARS) {
    throw new LinkError(`The link is too long to be a notebook (${text.length} characters).`);
  }
  const bytes = fromBase64Url(text);
  let inflated: Uint8Array;
  try {
    inflated = await pipeThrough(bytes, new DecompressionStream('deflate-raw'), MAX_INFLATED_BYTES);
  } catch (error) {
    if (error instanceof LinkError) throw error;
    throw new LinkError(
      'The link is damaged: its notebook data is truncated or not compressed as expected.',
    );
  }
  let json: string;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(inflated);
  } catch {
    throw new LinkError('The link is damaged: its notebook data is not UTF-8 text.');
  }
  try {
    return JSON.parse(json) as unknown;
  } catch {
    throw new LinkError('The link is damaged: its notebook data is not valid JSON.');
  }
}

async function pipeThrough(
  input: Uint8Array,
  transform: CompressionStream | DecompressionStream,
  maxBytes = Infinity,
): Promise<Uint8Array> {
  const writer = transform.writable.getWriter();
  const written = writer.write(input as Uint8Array<ArrayBuffer>).then(() => writer.close());
  written.catch(() => {}); // errors surface through the reader below
  const reader = transform.readable.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new LinkError(
        `The link's notebook would inflate past ${Math.round(maxBytes / 1024 / 1024)} MB; it was not opened.`,
      );
    }
    chunks.push(value);
  }
  await written;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c++) out += ALPHABET[(n >> (18 - 6 * c)) & 63];
  }
  return out;
}

export function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) {
    throw new LinkError(
      'The link is damaged: its #nb= part has characters that base64url never uses.',
    );
  }
  if (text.length % 4 === 1) {
    throw new LinkError('The link is damaged: its #nb= part was cut short.');
  }
  const out = new Uint8Array(Math.floor((text.length * 6) / 8));
  let bits = 0;
  let value = 0;
  let o = 0;
  for (const char of text) {
    value = (value << 6) | ALPHABET.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (value >> bits) & 0xff;
    }
  }
  return out;
}
