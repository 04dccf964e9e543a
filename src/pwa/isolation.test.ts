import { describe, expect, it } from 'vitest';
import {
  cspMetaTag,
  metaContentSecurityPolicy,
  pageContentSecurityPolicy,
  workerContentSecurityPolicy,
} from '../../scripts/security-headers.ts';
import { isolationHeadersFor, withIsolationHeaders } from './isolation';

describe('service worker responses', () => {
  it('keep cross-origin isolation, with the page CSP on documents and the worker CSP on workers', async () => {
    // What the server said when the service worker itself fetched the kernel worker script.
    const cached = new Response('self.onmessage = () => {};', {
      status: 200,
      headers: {
        'content-type': 'text/javascript',
        'content-security-policy': pageContentSecurityPolicy,
        'content-encoding': 'gzip',
        'content-length': '12',
        etag: '"abc"',
      },
    });
    const worker = withIsolationHeaders(cached, 'worker');
    expect(worker.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(worker.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect(worker.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(worker.headers.get('content-security-policy')).toBe(workerContentSecurityPolicy);
    expect(worker.headers.get('content-security-policy')).toContain("'unsafe-eval'");
    expect(worker.headers.get('content-encoding')).toBeNull();
    expect(worker.headers.get('content-length')).toBeNull();
    expect(worker.headers.get('etag')).toBe('"abc"');
    expect(await worker.text()).toBe('self.onmessage = () => {};');

    const page = withIsolationHeaders(new Response('<!doctype html>', { status: 200 }), 'document');
    expect(page.headers.get('content-security-policy')).toBe(pageContentSecurityPolicy);
    expect(page.headers.get('content-security-policy')).not.toContain("'unsafe-eval'");
    expect(isolationHeadersFor('script')['Content-Security-Policy']).toBeUndefined();
  });

  it('keep status, and bodiless statuses stay bodiless', () => {
    const missing = withIsolationHeaders(
      new Response('nope', { status: 404, statusText: 'Not Found' }),
      'script',
    );
    expect([missing.status, missing.statusText]).toEqual([404, 'Not Found']);
    const notModified = withIsolationHeaders(new Response(null, { status: 304 }), 'document');
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBeNull();
  });
});

describe('CSP meta element', () => {
  it('is the page policy minus what a meta cannot carry', () => {
    const directives = (policy: string) => policy.split('; ');
    expect(directives(metaContentSecurityPolicy)).toEqual(
      directives(pageContentSecurityPolicy).filter((d) => !d.startsWith('frame-ancestors')),
    );
    expect(pageContentSecurityPolicy).toContain('frame-ancestors');
  });

  it('goes right after <meta charset>, before any script', () => {
    const plugin = cspMetaTag();
    const hook = plugin.transformIndexHtml as { handler: (html: string) => string };
    const html = hook.handler(
      '<html><head>\n<meta charset="UTF-8" />\n<script type="module" src="/x.js"></script></head></html>',
    );
    const meta = `<meta http-equiv="Content-Security-Policy" content="${metaContentSecurityPolicy}" />`;
    expect(html.indexOf(meta)).toBeGreaterThan(html.indexOf('<meta charset'));
    expect(html.indexOf(meta)).toBeLessThan(html.indexOf('<script'));
    expect(plugin.apply).toBe('build');
  });
});

describe('what each policy may connect to', () => {
  const connectSrc = (policy: string) =>
    policy
      .split('; ')
      .filter((d) => d.startsWith('connect-src '))
      .map((d) => d.split(' ').slice(1));

  it('the worker, where notebook code runs: its own origin and the blob: URLs of package bytes', () => {
    expect(connectSrc(workerContentSecurityPolicy)).toEqual([["'self'", 'blob:']]);
  });

  it('the page, which fetches packages from the base the user set: https and local servers', () => {
    expect(connectSrc(pageContentSecurityPolicy)).toEqual([
      ["'self'", 'https:', 'http://localhost:*', 'http://127.0.0.1:*'],
    ]);
    // The page still runs only our own scripts.
    expect(pageContentSecurityPolicy).toContain("script-src 'self' 'wasm-unsafe-eval';");
  });
});
