import { describe, expect, it } from 'vitest';
import { imageDataUrl, isAllowedUrl } from './url-policy';

describe('notebook URL policy', () => {
  it('lets links go to the web, mail and relative places only', () => {
    for (const ok of [
      'https://pytorch.org/docs',
      'http://x.org',
      'mailto:a@b.c',
      '#part-2',
      '/data/x',
      './a',
      '../b',
      'page.html',
      '//cdn.example/x',
      'a/b:c',
    ]) {
      expect(isAllowedUrl(ok, 'link'), ok).toBe(true);
    }
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:x',
      '\u0000javascript:x',
      'vbscript:x',
      'data:text/html,<script>alert(1)</script>',
      'data:image/png;base64,AAAA',
      'file:///etc/passwd',
      'blob:https://x/1',
    ]) {
      expect(isAllowedUrl(bad, 'link'), JSON.stringify(bad)).toBe(false);
    }
  });

  it('lets images come from the web, relative places and data:image only', () => {
    for (const ok of [
      'https://x.org/a.png',
      'img/a.png',
      'data:image/png;base64,iVBORw0KGgo=',
      'data:image/svg+xml,%3Csvg%3E',
    ]) {
      expect(isAllowedUrl(ok, 'image'), ok).toBe(true);
    }
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,x',
      'data:,x',
      'mailto:a@b.c',
      'ftp://x/a.png',
    ]) {
      expect(isAllowedUrl(bad, 'image'), bad).toBe(false);
    }
  });

  it('builds data URLs for plain image outputs only', () => {
    expect(imageDataUrl('image/png', 'iVBO Rw0K\nGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(imageDataUrl('image/svg+xml', 'PHN2Zz4=')).toBeNull();
    expect(imageDataUrl('text/html', 'PGI+')).toBeNull();
    expect(imageDataUrl('image/png', '"><script>')).toBeNull();
  });
});
