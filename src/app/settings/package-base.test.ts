import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkPackageBase,
  DEFAULT_PACKAGE_BASE,
  onPackageBaseChange,
  readPackageBase,
  savePackageBase,
} from './package-base';

/** A Storage of our own (Node has no localStorage): the Web Storage interface over a Map. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

describe('the Python package base setting', () => {
  it("defaults to Pyodide's CDN folder for the bundled version", () => {
    const pkg = JSON.parse(
      readFileSync(new URL('../../../node_modules/pyodide/package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect(DEFAULT_PACKAGE_BASE).toBe(`https://cdn.jsdelivr.net/pyodide/v${pkg.version}/full/`);
    expect(readPackageBase(memoryStorage())).toBe(DEFAULT_PACKAGE_BASE);
    expect(readPackageBase(null)).toBe(DEFAULT_PACKAGE_BASE);
  });

  it('accepts http(s) folders, trimmed and normalised', () => {
    expect(checkPackageBase(' https://mirror.example.org/pyodide/v1/full/ ')).toEqual({
      ok: true,
      url: 'https://mirror.example.org/pyodide/v1/full/',
    });
    expect(checkPackageBase('http://127.0.0.1:8123/')).toEqual({
      ok: true,
      url: 'http://127.0.0.1:8123/',
    });
    expect(checkPackageBase('HTTPS://Example.ORG/a/')).toEqual({
      ok: true,
      url: 'https://example.org/a/',
    });
  });

  it.each([
    ['', /Not a URL/],
    ['cdn.jsdelivr.net/pyodide/', /Not a URL/],
    ['ftp://example.org/pyodide/', /Only http/],
    ['javascript:alert(1)//', /Only http/],
    ['file:///tmp/pyodide/', /Only http/],
    ['https://user:secret@example.org/pyodide/', /user name or password/],
    ['https://example.org/pyodide/?v=1', /query/],
    ['https://example.org/pyodide/#x', /fragment/],
    ['https://example.org/pyodide/?', /query/],
    ['https://example.org/pyodide', /end with "\/"/],
  ])('refuses %j', (text, message) => {
    const check = checkPackageBase(text);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(message);
  });

  it('saves, tells listeners, stores the default as no setting, and ignores a bad stored value', () => {
    const store = memoryStorage();
    let changes = 0;
    const stop = onPackageBaseChange(() => (changes += 1));
    savePackageBase('http://localhost:9000/wheels/', store);
    expect(readPackageBase(store)).toBe('http://localhost:9000/wheels/');
    expect(store.length).toBe(1);
    savePackageBase(DEFAULT_PACKAGE_BASE, store);
    expect(store.length).toBe(0);
    expect(readPackageBase(store)).toBe(DEFAULT_PACKAGE_BASE);
    expect(changes).toBe(2);
    stop();

    expect(() => savePackageBase('https://example.org/no-slash', store)).toThrow(/end with/);
    expect(store.length).toBe(0);
    store.setItem('gpubook.pythonPackageBase', 'javascript:alert(1)');
    expect(readPackageBase(store)).toBe(DEFAULT_PACKAGE_BASE);
  });
});
