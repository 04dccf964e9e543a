/**
 * The offline download's list and fetch: the closure over Pyodide's real lock checked against the
 * same walk done by CPython, sizes from HEAD, and the download into the cache against a real
 * HTTP server, verified, stopping at a file that fails.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cachedFiles,
  dependencyClosure,
  fileSizes,
  makePackagesAvailableOffline,
  OFFLINE_PACKAGES,
  parseLock,
  readBaseLock,
  type LockEntry,
} from './offline-packages';
import { MemoryCache } from './testing/memory-cache';

const LOCK_PATH = 'node_modules/pyodide/pyodide-lock.json';

describe("the offline packages' list", () => {
  it("is numpy, pandas, matplotlib, scikit-learn and their depends, as CPython walks Pyodide's lock", () => {
    const lock = parseLock(JSON.parse(readFileSync(LOCK_PATH, 'utf8')));
    const { entries, missing } = dependencyClosure(lock, OFFLINE_PACKAGES);
    expect(missing).toEqual([]);
    const python = `
import json, re, sys
packages = json.load(open(sys.argv[1]))["packages"]
norm = lambda n: re.sub(r"[-_.]+", "-", n).lower()
todo, seen = [norm(n) for n in sys.argv[2:]], set()
while todo:
    n = todo.pop()
    if n not in seen:
        seen.add(n)
        todo.extend(norm(d) for d in packages[n]["depends"])
print(json.dumps(sorted(packages[n]["file_name"] for n in seen)))
`;
    const expected = JSON.parse(
      execFileSync('/usr/bin/python3', ['-c', python, LOCK_PATH, ...OFFLINE_PACKAGES], {
        encoding: 'utf8',
      }),
    ) as string[];
    expect(entries.map((e) => e.fileName).sort()).toEqual(expected);
    expect(entries.map((e) => e.name)).toContain('scipy');
  });

  it('names what the lock lacks, and refuses what is not a lock', () => {
    const lock = parseLock({
      packages: {
        a: { name: 'A', file_name: 'a.whl', sha256: 'x', depends: ['b_c', 'gone'] },
        'b-c': { name: 'b_c', file_name: 'b.whl', sha256: 'y', depends: ['A'] },
      },
    });
    const { entries, missing } = dependencyClosure(lock, ['a', 'nothing']);
    expect(entries.map((e) => e.fileName)).toEqual(['a.whl', 'b.whl']);
    expect(missing.sort()).toEqual(['gone', 'nothing']);
    expect(() => parseLock({ info: {} })).toThrow(/no "packages"/);
    expect(() => parseLock({ packages: { a: { file_name: 'a.whl' } } })).toThrow(/"a"/);
  });
});

describe('fetching them into the package cache', () => {
  const files = new Map<string, Buffer>();
  const entries: LockEntry[] = [];
  for (const name of ['one', 'two', 'three']) {
    const bytes = randomBytes(50_000 + entries.length * 1000);
    const fileName = `${name}-1.0-py3-none-any.whl`;
    files.set(`/p/${fileName}`, bytes);
    entries.push({
      name,
      fileName,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      depends: [],
    });
  }
  const lock = Buffer.from(
    JSON.stringify({
      packages: Object.fromEntries(
        entries.map((e) => [
          e.name,
          { name: e.name, file_name: e.fileName, sha256: e.sha256, depends: [] },
        ]),
      ),
    }),
  );
  files.set('/p/pyodide-lock.json', lock);
  const requests: string[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      const body = files.get(req.url ?? '');
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/p/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads the base lock, sizes by HEAD, downloads verified, and knows what is cached', async () => {
    const cache = new MemoryCache();
    const context = { base, cache };
    const read = await readBaseLock(context);
    expect([...read.keys()]).toEqual(['one', 'two', 'three']);
    expect(cache.entries.has(`${base}pyodide-lock.json`)).toBe(true);

    const sizes = await fileSizes(entries, base);
    expect(sizes).toEqual(entries.map((e) => files.get(`/p/${e.fileName}`)!.length));
    expect(await fileSizes([{ ...entries[0], fileName: 'absent.whl' }], base)).toEqual([null]);
    expect(await cachedFiles(entries, context)).toEqual([false, false, false]);

    const progress: [number, number][] = [];
    await makePackagesAvailableOffline(entries, context, (bytes, n) => progress.push([bytes, n]));
    const total = sizes.reduce((a, b) => a! + b!, 0)!;
    expect(progress.at(-1)).toEqual([total, 3]);
    expect(progress.every(([b], i) => i === 0 || b >= progress[i - 1][0])).toBe(true);
    expect(await cachedFiles(entries, context)).toEqual([true, true, true]);
    for (const e of entries) {
      const kept = Buffer.from(cache.entries.get(`${base}${e.fileName}`)!);
      expect(kept.equals(files.get(`/p/${e.fileName}`)!)).toBe(true);
    }
  });

  it('stops at a file that fails, naming it and why', async () => {
    const cache = new MemoryCache();
    const bad = { ...entries[1], sha256: '0'.repeat(64) };
    await expect(makePackagesAvailableOffline([bad], { base, cache }, () => {})).rejects.toThrow(
      /two \(two-1\.0-py3-none-any\.whl\): integrity mismatch/,
    );
    expect(cache.entries.size).toBe(0);
    await expect(
      makePackagesAvailableOffline(entries, { base, cache: null }, () => {}),
    ).rejects.toThrow(/Cache Storage/);
  });
});
