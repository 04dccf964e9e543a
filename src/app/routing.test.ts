import { describe, expect, it } from 'vitest';
import { linkParams, routeFromUrl, urlForRoute } from './routing';

describe('routing', () => {
  it('reads ?nb=<id> as an open notebook and anything else as home', () => {
    expect(routeFromUrl(new URL('http://x/?nb=abc123&size=test'))).toEqual({
      page: 'notebook',
      notebookId: 'abc123',
    });
    expect(routeFromUrl(new URL('http://x/?size=test'))).toEqual({ page: 'home' });
    expect(routeFromUrl(new URL('http://x/?nb='))).toEqual({ page: 'home' });
  });

  it('reads ?open= and #nb= as incoming links, keyed by the link', () => {
    expect(routeFromUrl(new URL('http://x/?open=torch-gpu&size=test'))).toEqual({
      page: 'incoming',
      link: { kind: 'bundled', id: 'torch-gpu' },
      key: '?open=torch-gpu&size=test',
    });
    expect(routeFromUrl(new URL('http://x/?nb=k9#nb=AbC'))).toMatchObject({
      page: 'incoming',
      link: { kind: 'shared', payload: 'AbC' },
    });
    expect(routeFromUrl(new URL('http://x/?open=../x'))).toMatchObject({
      page: 'incoming',
      link: { kind: 'invalid' },
    });
  });

  it('keeps other parameters when moving between pages, and drops incoming-link parts', () => {
    const here = new URL('http://x/app/?size=class#nb=payload');
    expect(urlForRoute({ page: 'notebook', notebookId: 'k9' }, here)).toBe(
      '/app/?size=class&nb=k9',
    );
    const open = new URL('http://x/app/?size=class&nb=k9');
    expect(urlForRoute({ page: 'home' }, open)).toBe('/app/?size=class');
    const bundled = new URL('http://x/app/?open=torch-gpu&size=test');
    expect(urlForRoute({ page: 'notebook', notebookId: 'n1' }, bundled)).toBe(
      '/app/?size=test&nb=n1',
    );
  });

  it("gives cells the link's parameters without the app's own keys", () => {
    expect(linkParams(new URL('http://x/?nb=k9&size=test&lr=0.1'))).toEqual({
      size: 'test',
      lr: '0.1',
    });
    expect(linkParams(new URL('http://x/?open=torch-gpu&size=test'))).toEqual({ size: 'test' });
  });
});
