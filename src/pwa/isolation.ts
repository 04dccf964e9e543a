/**
 * The headers a response needs when the service worker serves it, so that pages loaded offline
 * stay cross-origin isolated (COOP/COEP: SharedArrayBuffer for interrupts) and keep the right
 * Content-Security-Policy: the page policy on documents, the worker policy (which lets the kernel
 * compile cells) on worker scripts. Cached responses cannot be trusted to carry them: the service
 * worker fetched them itself, so the server answered with the headers for *its* request.
 */
import {
  isolationHeaders,
  pageContentSecurityPolicy,
  workerContentSecurityPolicy,
} from '../../scripts/security-headers.ts';

/** `destination` is the request's (`document`, `worker`, `script`, …). */
export function isolationHeadersFor(destination: string): Record<string, string> {
  const headers: Record<string, string> = {
    ...isolationHeaders,
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
  if (destination === 'document' || destination === 'iframe') {
    headers['Content-Security-Policy'] = pageContentSecurityPolicy;
  } else if (destination === 'worker' || destination === 'sharedworker') {
    headers['Content-Security-Policy'] = workerContentSecurityPolicy;
  }
  return headers;
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/** A copy of `response` with the isolation headers for `destination`; opaque ones unchanged. */
export function withIsolationHeaders(response: Response, destination: string): Response {
  if (response.type === 'opaque' || response.type === 'opaqueredirect' || response.status === 0) {
    return response;
  }
  const headers = new Headers(response.headers);
  // The body below is the already decoded one: the original encoding and length no longer apply.
  headers.delete('Content-Encoding');
  headers.delete('Content-Length');
  for (const [name, value] of Object.entries(isolationHeadersFor(destination))) {
    headers.set(name, value);
  }
  return new Response(NULL_BODY_STATUS.has(response.status) ? null : response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
