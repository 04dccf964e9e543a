import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchVerified, PackageFetchError, sha256Hex } from './fetch-verified';

const body = randomBytes(200_000);
const bodyHash = createHash('sha256').update(body).digest('hex');
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/file.whl') {
      response.writeHead(200, { 'content-length': String(body.length) });
      // Two writes, so progress has more than one step.
      response.write(body.subarray(0, 100_000));
      setTimeout(() => response.end(body.subarray(100_000)), 20);
    } else if (request.url === '/broken.whl') {
      response.writeHead(200, { 'content-length': String(body.length) });
      response.write(body.subarray(0, 1000));
      setTimeout(() => response.destroy(), 20);
    } else {
      response.writeHead(404, 'Not Found');
      response.end('no');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function failure(promise: Promise<unknown>): Promise<PackageFetchError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PackageFetchError);
  return error as PackageFetchError;
}

describe('fetchVerified', () => {
  it('hashes as node:crypto does', async () => {
    expect(await sha256Hex(new Uint8Array(body))).toBe(bodyHash);
  });

  it('returns the bytes with progress when the hash matches', async () => {
    const steps: Array<[number, number | null]> = [];
    const bytes = await fetchVerified(`${base}/file.whl`, bodyHash.toUpperCase(), (l, t) =>
      steps.push([l, t]),
    );
    expect(Buffer.from(bytes).equals(body)).toBe(true);
    expect(steps[0]).toEqual([0, body.length]);
    expect(steps.at(-1)).toEqual([body.length, body.length]);
    expect(steps.length).toBeGreaterThan(2);
    expect(await fetchVerified(`${base}/file.whl`, null, () => {})).toHaveLength(body.length);
  });

  it('says integrity with both hashes when the bytes differ', async () => {
    const wrong = '0'.repeat(64);
    const error = await failure(fetchVerified(`${base}/file.whl`, wrong, () => {}));
    expect(error.reason).toBe('integrity');
    expect(error.url).toBe(`${base}/file.whl`);
    expect(error.message).toContain(`expected sha256 ${wrong}, got ${bodyHash}`);
  });

  it('says http with the status for a 404', async () => {
    const error = await failure(fetchVerified(`${base}/missing.whl`, null, () => {}));
    expect(error.reason).toBe('http');
    expect(error.status).toBe(404);
    expect(error.message).toContain('HTTP 404');
  });

  it('says offline when nothing answers or the connection breaks', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(fetchVerified(`http://127.0.0.1:${port}/x.whl`, null, () => {}));
    expect(error.reason).toBe('offline');
    expect(error.message).toContain(`http://127.0.0.1:${port}/x.whl`);
    const broken = await failure(fetchVerified(`${base}/broken.whl`, null, () => {}));
    expect(broken.reason).toBe('offline');
  });
});
