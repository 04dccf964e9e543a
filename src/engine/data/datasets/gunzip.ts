/** Gzip inflation with the platform's DecompressionStream, which workers and Node 18+ both have. */

/** True when `bytes` begin with the gzip magic number (RFC 1952: 0x1f 0x8b). */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Inflates a gzip file; throws on a corrupt or truncated one. */
export async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new DecompressionStream('gzip');
  const writer = stream.writable.getWriter();
  // Not awaited: the write only settles once the readable side is drained below, and its failure
  // surfaces through the readable side too, so this rejection is deliberately swallowed.
  // The copy is a plain-ArrayBuffer view, which the stream's BufferSource type demands (a view of a
  // SharedArrayBuffer is not one); inputs here are compressed files of a few MB at most.
  writer.write(new Uint8Array(bytes)).catch(() => {});
  writer.close().catch(() => {});
  return new Uint8Array(await new Response(stream.readable).arrayBuffer());
}

/** Inflates gzip data and passes anything else through (see ReadAsset on servers that inflate). */
export async function gunzipIfNeeded(bytes: Uint8Array): Promise<Uint8Array> {
  return isGzip(bytes) ? gunzip(bytes) : bytes;
}
