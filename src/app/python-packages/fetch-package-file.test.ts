/**
 * The page's package fetcher against a real HTTP server (node:http on 127.0.0.1): names refused,
 * hashes checked with Node's own crypto, wheels cache-first and kept only when verified, the lock
 * network-first with the cached copy offline, and each failure's reason.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPackageFile, PACKAGE_FILE_NAME, packageFileUrl } from './fetch-package-file';
import { MemoryCache } from './testing/memory-cache';

const wheel = randomBytes(300_000);
const wheelSha = createHash('sha256').update(wheel).digest('hex');
const lock = Buffer.from(JSON.stringify({ info: {}, packages: {} }));
const requests: string[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const body = { '/p/good-1.0-py3-none-any.whl': wheel, '/p/pyodide-lock.json': lock }[
      req.url ?? ''
    ];
    if (!body) {
      res.writeHead(404).end('no');
      return;
    }
    res.writeHead(200, { 'Content-Length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/p/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const noProgress = () => {};

describe("the page's package fetcher", () => {
  it.each(['../x.whl', 'a/b.whl', 'https://evil.example/x.whl', '.hidden', '', 'a b', '%2e%2e'])(
    'refuses %j without a request',
    async (fileName) => {
      const before = requests.length;
      const answer = await fetchPackageFile({ fileName, sha256: null }, noProgress, {
        base,
        cache: new MemoryCache(),
      });
      expect(answer).toMatchObject({ ok: false, url: '', reason: 'refused' });
      expect(requests.length).toBe(before);
    },
  );

  it('accepts the names in a real Pyodide lock', async () => {
    const { readFile } = await import('node:fs/promises');
    const real = JSON.parse(await readFile('node_modules/pyodide/pyodide-lock.json', 'utf8')) as {
      packages: Record<string, { file_name: string }>;
    };
    for (const entry of Object.values(real.packages)) {
      expect(entry.file_name).toMatch(PACKAGE_FILE_NAME);
    }
  });

  it('fetches a wheel with progress, keeps it verified, then serves it from the cache', async () => {
    const cache = new MemoryCache();
    const progress: [number, number | null][] = [];
    const request = { fileName: 'good-1.0-py3-none-any.whl', sha256: wheelSha.toUpperCase() };
    const first = await fetchPackageFile(request, (l, t) => progress.push([l, t]), {
      base,
      cache,
    });
    expect(first).toMatchObject({ ok: true, fromCache: false, url: `${base}${request.fileName}` });
    if (!first.ok) return;
    expect(Buffer.from(first.bytes).equals(wheel)).toBe(true);
    expect(progress[0]).toEqual([0, wheel.length]);
    expect(progress.at(-1)).toEqual([wheel.length, wheel.length]);
    expect([...cache.entries.keys()]).toEqual([`${base}${request.fileName}`]);

    const before = requests.length;
    const second = await fetchPackageFile(request, noProgress, { base, cache });
    expect(second).toMatchObject({ ok: true, fromCache: true });
    if (second.ok) expect(Buffer.from(second.bytes).equals(wheel)).toBe(true);
    expect(requests.length).toBe(before);
  });

  it('refetches when the cached bytes do not match the hash asked for', async () => {
    const cache = new MemoryCache();
    const url = `${base}good-1.0-py3-none-any.whl`;
    cache.entries.set(url, new Uint8Array([1, 2, 3]).buffer);
    const answer = await fetchPackageFile(
      { fileName: 'good-1.0-py3-none-any.whl', sha256: wheelSha },
      noProgress,
      { base, cache },
    );
    expect(answer).toMatchObject({ ok: true, fromCache: false });
    expect(Buffer.from(cache.entries.get(url)!).equals(wheel)).toBe(true);
  });

  it('a wrong hash is an integrity failure, and nothing is kept', async () => {
    const cache = new MemoryCache();
    const answer = await fetchPackageFile(
      { fileName: 'good-1.0-py3-none-any.whl', sha256: '0'.repeat(64) },
      noProgress,
      { base, cache },
    );
    expect(answer).toMatchObject({ ok: false, reason: 'integrity' });
    if (!answer.ok) expect(answer.message).toContain(wheelSha);
    expect(cache.entries.size).toBe(0);
  });

  it('a missing file is an http failure', async () => {
    const answer = await fetchPackageFile({ fileName: 'nope.whl', sha256: wheelSha }, noProgress, {
      base,
      cache: new MemoryCache(),
    });
    expect(answer).toMatchObject({ ok: false, reason: 'http', url: `${base}nope.whl` });
    if (!answer.ok) expect(answer.message).toMatch(/404/);
  });

  it('the lock is network-first, and its cached copy serves when the base is unreachable', async () => {
    const cache = new MemoryCache();
    const online = await fetchPackageFile(
      { fileName: 'pyodide-lock.json', sha256: null },
      noProgress,
      {
        base,
        cache,
      },
    );
    expect(online).toMatchObject({ ok: true, fromCache: false });
    const before = requests.length;
    await fetchPackageFile({ fileName: 'pyodide-lock.json', sha256: null }, noProgress, {
      base,
      cache,
    });
    expect(requests.length).toBe(before + 1); // asked the network again

    // A closed port stands for the network being gone.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const gone = `http://127.0.0.1:${port}/p/`;
    cache.entries.set(`${gone}pyodide-lock.json`, cache.entries.get(`${base}pyodide-lock.json`)!);

    const offline = await fetchPackageFile(
      { fileName: 'pyodide-lock.json', sha256: null },
      noProgress,
      {
        base: gone,
        cache,
      },
    );
    expect(offline).toMatchObject({ ok: true, fromCache: true });
    if (offline.ok) expect(Buffer.from(offline.bytes).equals(lock)).toBe(true);

    const nothing = await fetchPackageFile(
      { fileName: 'x-1.0-py3-none-any.whl', sha256: wheelSha },
      noProgress,
      {
        base: gone,
        cache,
      },
    );
    expect(nothing).toMatchObject({
      ok: false,
      reason: 'offline',
      url: `${gone}x-1.0-py3-none-any.whl`,
    });
    if (!nothing.ok) expect(nothing.message).toMatch(/package cache has no copy/);
  });
});

describe('%pip: which PyPI URLs the page fetches', () => {
  const sha = 'a'.repeat(64);
  const pypi = (url: string, sha256: string | null = null) =>
    packageFileUrl({ fileName: 'x', sha256, source: 'pypi', url }, 'https://cdn.example/p/');

  it.each([
    ['https://pypi.org/pypi/six/json', null],
    ['https://pypi.org/pypi/python-dateutil/2.9.0.post0/json', null],
    [
      'https://files.pythonhosted.org/packages/b7/ce/149a00dd41f10bc29e5921b496af8b574d8413afcd5e30dfa0ed46c2cc5e/six-1.17.0-py2.py3-none-any.whl',
      sha,
    ],
  ])('fetches %s', (url, sha256) => {
    expect(pypi(url, sha256)).toEqual({ ok: true, url });
  });

  it.each([
    ['http://pypi.org/pypi/six/json', null],
    ['https://pypi.org.evil.example/pypi/six/json', null],
    ['https://evil.example/pypi/six/json', null],
    ['https://pypi.org/simple/six/', null],
    ['https://pypi.org/pypi/six/json?x=1', null],
    ['https://pypi.org:8443/pypi/six/json', null],
    ['https://user@pypi.org/pypi/six/json', null],
    ['https://files.pythonhosted.org/packages/x/six.whl', null], // no hash to check
    ['https://files.pythonhosted.org/other/six.whl', sha],
    ['not a url', null],
  ])('refuses %s', (url, sha256) => {
    expect(pypi(url, sha256)).toMatchObject({ ok: false, reason: 'refused', url: '' });
  });

  it('a PyPI request without a URL is refused, and a base file name never leaves the base', () => {
    expect(
      packageFileUrl({ fileName: 'six.whl', sha256: sha, source: 'pypi' }, base),
    ).toMatchObject({ ok: false, reason: 'refused' });
    expect(packageFileUrl({ fileName: 'six.whl', sha256: sha }, 'https://cdn.example/p/')).toEqual({
      ok: true,
      url: 'https://cdn.example/p/six.whl',
    });
  });
});
