import { describe, expect, it } from 'vitest';
import { routeFromUrl, urlForRoute } from '../routing';
import { isPresentHash } from './presentMode';

describe('#present in URLs', () => {
  it('keeps a teacher link in classroom mode and never takes #nb= for it', () => {
    const open = new URL('https://x.test/app/?open=torch-gpu#present');
    expect(urlForRoute({ page: 'notebook', notebookId: 'n1' }, open)).toBe('/app/?nb=n1#present');
    expect(urlForRoute({ page: 'home' }, open)).toBe('/app/');
    expect(routeFromUrl(new URL('https://x.test/?nb=n1#present'))).toEqual({
      page: 'notebook',
      notebookId: 'n1',
    });
    expect(routeFromUrl(new URL('https://x.test/?nb=n1#nb=abc')).page).toBe('incoming');
    expect(isPresentHash('#present')).toBe(true);
    expect(isPresentHash('#nb=present')).toBe(false);
    expect(isPresentHash('#presentation')).toBe(false);
  });
});
