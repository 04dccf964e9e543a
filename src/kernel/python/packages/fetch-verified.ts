/**
 * Fetches one package file (a wheel, a lock) with progress, checks its sha256, and says why it
 * failed in the protocol's terms. DOM-free: the page calls it (with Cache Storage around it) to
 * answer the worker's `fetch-package-file`, and Node tests call it against a local server.
 */
import type { PackageFailureReason } from '../../protocol';

/** A package file that could not be had; `reason` is what the protocol carries. */
export class PackageFetchError extends Error {
  override readonly name = 'PackageFetchError';
  constructor(
    /** The absolute URL tried (empty when the name itself was refused). */
    readonly url: string,
    readonly reason: PackageFailureReason,
    message: string,
    /** For 'http': the response status. */
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

export type FetchProgress = (loaded: number, total: number | null) => void;

export interface FetchVerifiedOptions {
  signal?: AbortSignal;
  /** Defaults to the global `fetch` (tests and callers with their own cache may pass another). */
  fetch?: typeof fetch;
}

/** Lower-case hex of the SHA-256 of `bytes` (Web Crypto: browsers, workers and Node 20). */
export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // Node's fetch hides the socket error (ECONNREFUSED, ENOTFOUND) in `cause`.
  const cause = (error as { cause?: unknown }).cause;
  const detail = cause instanceof Error ? cause.message : '';
  return detail && !error.message.includes(detail) ? `${error.message} (${detail})` : error.message;
}

/**
 * The file's bytes, whole and (when `sha256` is given) matching it. Rejects with
 * PackageFetchError: 'offline' when no response came (the network or the server is unreachable,
 * or the connection broke mid-file), 'http' for a response that is not ok, 'integrity' for bytes
 * whose hash differs from the lock's.
 */
export async function fetchVerified(
  url: string,
  sha256: string | null,
  onProgress: FetchProgress,
  options: FetchVerifiedOptions = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(url, { signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new PackageFetchError(url, 'offline', `could not reach ${url}: ${describe(error)}`);
  }
  if (!response.ok) {
    const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    // Nothing to read: free the connection.
    await response.body?.cancel().catch(() => {});
    throw new PackageFetchError(url, 'http', `${url} answered ${status}`, response.status);
  }
  const bytes = await readAll(response, url, onProgress, options.signal);
  if (sha256 !== null) {
    const got = await sha256Hex(bytes);
    if (got !== sha256.toLowerCase()) {
      throw new PackageFetchError(
        url,
        'integrity',
        `integrity mismatch for ${url}: expected sha256 ${sha256.toLowerCase()}, got ${got}`,
      );
    }
  }
  return bytes;
}

/** The body in one array, reporting bytes as they come. */
async function readAll(
  response: Response,
  url: string,
  onProgress: FetchProgress,
  signal: AbortSignal | undefined,
): Promise<Uint8Array<ArrayBuffer>> {
  // Content-Length counts encoded bytes; with a Content-Encoding the decoded size is unknown.
  const length = Number(response.headers.get('content-length'));
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
  const total = Number.isFinite(length) && length > 0 && !encoded ? length : null;
  onProgress(0, total);
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  try {
    if (!response.body) {
      const whole = new Uint8Array(await response.arrayBuffer());
      onProgress(whole.length, total ?? whole.length);
      return whole;
    }
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.length;
      onProgress(loaded, total);
    }
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new PackageFetchError(
      url,
      'offline',
      `the connection broke while reading ${url} (${loaded} bytes in): ${describe(error)}`,
    );
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}
