import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataFileError, describeDataFile } from './data-file-error';
import { fetchAssetReader } from './read-asset';

const ROOT = 'https://gpubook.test/app/data/';

function stub(fetch: (url: URL) => Promise<Response>, onLine: boolean): void {
  vi.stubGlobal('fetch', vi.fn(fetch));
  vi.stubGlobal('navigator', { onLine });
}

async function failure(path: string): Promise<DataFileError> {
  const error: unknown = await fetchAssetReader(ROOT)(path).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataFileError);
  return error as DataFileError;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('fetchAssetReader errors', () => {
  it('offline: names the file and its dataset, says the browser is offline and why it matters', async () => {
    const cause = new TypeError('Failed to fetch');
    stub(() => Promise.reject(cause), false);
    const error = await failure('mnist/train-images-0.idx3-ubyte.gz');
    expect(error.name).toBe('DataFileError');
    expect(error.message).toContain('MNIST training images');
    expect(error.message).toContain('public/data/mnist/train-images-0.idx3-ubyte.gz');
    expect(error.message).toContain('the browser is offline');
    expect(error.message).toMatch(/fetched and cached on first use while the browser is online/);
    expect(error.message).not.toContain('Failed to fetch');
    expect(error.failure).toEqual({ kind: 'offline' });
    expect(error.path).toBe('mnist/train-images-0.idx3-ubyte.gz');
    expect(error.cause).toBe(cause);
  });

  it('online but the request fails: says the request failed, keeps the cause', async () => {
    const cause = new TypeError('Failed to fetch');
    stub(() => Promise.reject(cause), true);
    const error = await failure('sotu/tokens.bin.gz');
    expect(error.message).toContain('State of the Union corpus');
    expect(error.message).toContain('public/data/sotu/tokens.bin.gz');
    expect(error.message).toContain('network request failed');
    expect(error.failure).toEqual({ kind: 'network' });
    expect(error.cause).toBe(cause);
  });

  it('HTTP 404: names the file and the status', async () => {
    const requested: string[] = [];
    stub(async (url) => {
      requested.push(url.href);
      return new Response('missing', { status: 404, statusText: 'Not Found' });
    }, true);
    const error = await failure('mnist/test-labels.idx1-ubyte.gz');
    expect(requested).toEqual([`${ROOT}mnist/test-labels.idx1-ubyte.gz`]);
    expect(error.message).toContain('MNIST test labels');
    expect(error.message).toContain('public/data/mnist/test-labels.idx1-ubyte.gz');
    expect(error.message).toContain('HTTP 404 Not Found');
    expect(error.failure).toEqual({ kind: 'http', status: 404, statusText: 'Not Found' });
  });

  it('passes aborts through and reads files that are there', async () => {
    const abort = new DOMException('The user aborted a request.', 'AbortError');
    stub(() => Promise.reject(abort), false);
    await expect(fetchAssetReader(ROOT)('mnist/manifest.json')).rejects.toBe(abort);
    stub(async () => new Response(new Uint8Array([1, 2, 3])), true);
    expect([...(await fetchAssetReader(ROOT.slice(0, -1))('mnist/manifest.json'))]).toEqual([
      1, 2, 3,
    ]);
  });

  it('describes every bundled file by its dataset', () => {
    expect(describeDataFile('mnist/test-images-0.idx3-ubyte.gz')).toBe(
      'MNIST test images (part 1 of the test set)',
    );
    expect(describeDataFile('mnist/train-images-5.idx3-ubyte.gz')).toContain('part 6');
    expect(describeDataFile('mnist/train-labels.idx1-ubyte.gz')).toBe('MNIST training labels');
    expect(describeDataFile('mnist/manifest.json')).toBe('the MNIST manifest');
    expect(describeDataFile('sotu/corpus.json.gz')).toContain('Reuters stand-in');
    expect(describeDataFile('other/thing.bin')).toBe('a bundled data file');
  });
});
