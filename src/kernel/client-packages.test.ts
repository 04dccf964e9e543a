/**
 * The client's side of `fetch-package-file`: it hands the request to the page's fetcher, streams
 * progress, answers with the bytes transferred (not copied) or the failure, answers only the
 * worker that asked, and refuses everything when the page gave it no fetcher.
 */
import { describe, expect, it } from 'vitest';
import {
  KernelClient,
  type PackageFileFetcher,
  type WorkerPort,
  type WorkerPortEvents,
} from './client';
import type { HostRequest } from './protocol';

interface Sent {
  worker: number;
  request: HostRequest;
  transfer: Transferable[];
}

function clientWith(fetchPackageFile?: PackageFileFetcher) {
  const sent: Sent[] = [];
  const ports: WorkerPortEvents[] = [];
  const client = new KernelClient({
    params: {},
    fetchPackageFile,
    openWorker: (events): WorkerPort => {
      const worker = ports.push(events);
      return {
        post: (request, transfer = []) => sent.push({ worker, request, transfer }),
        terminate: () => {},
      };
    },
  });
  client.start();
  const packageAnswers = () => sent.filter((s) => s.request.type.startsWith('package-'));
  return { client, ports, packageAnswers };
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('KernelClient: package files for the worker', () => {
  it('passes the request to the fetcher, streams progress, transfers the bytes', async () => {
    const asked: unknown[] = [];
    const bytes = new Uint8Array([1, 2, 3, 4]).buffer;
    const { ports, packageAnswers } = clientWith(async (request, onProgress) => {
      asked.push(request);
      onProgress(0, 4);
      onProgress(4, 4);
      return { ok: true, bytes, url: 'https://cdn.example/p/a.whl', fromCache: false };
    });
    ports[0].event({ type: 'fetch-package-file', requestId: 7, fileName: 'a.whl', sha256: 'ab' });
    await settle();
    expect(asked).toEqual([{ fileName: 'a.whl', sha256: 'ab' }]);
    const answers = packageAnswers();
    expect(answers.map((a) => a.request)).toEqual([
      { type: 'package-progress', requestId: 7, loaded: 0, total: 4 },
      { type: 'package-progress', requestId: 7, loaded: 4, total: 4 },
      {
        type: 'package-fetched',
        requestId: 7,
        bytes,
        url: 'https://cdn.example/p/a.whl',
        fromCache: false,
      },
    ]);
    expect(answers[2].transfer).toEqual([bytes]);

    ports[0].event({
      type: 'fetch-package-file',
      requestId: 8,
      fileName: 'json',
      sha256: null,
      source: 'pypi',
      url: 'https://pypi.org/pypi/six/json',
    });
    await settle();
    expect(asked[1]).toEqual({
      fileName: 'json',
      sha256: null,
      source: 'pypi',
      url: 'https://pypi.org/pypi/six/json',
    });
  });

  it('answers a failure with its url, reason and message', async () => {
    const { ports, packageAnswers } = clientWith(async () => ({
      ok: false,
      url: 'https://cdn.example/p/b.whl',
      reason: 'integrity',
      message: 'integrity mismatch',
    }));
    ports[0].event({ type: 'fetch-package-file', requestId: 1, fileName: 'b.whl', sha256: 'cd' });
    await settle();
    expect(packageAnswers().map((a) => a.request)).toEqual([
      {
        type: 'package-failed',
        requestId: 1,
        url: 'https://cdn.example/p/b.whl',
        reason: 'integrity',
        message: 'integrity mismatch',
      },
    ]);
  });

  it('refuses every request when the page gave no fetcher, and reports a fetcher that throws', async () => {
    const none = clientWith();
    none.ports[0].event({ type: 'fetch-package-file', requestId: 2, fileName: 'c', sha256: null });
    await settle();
    expect(none.packageAnswers().map((a) => a.request)).toEqual([
      {
        type: 'package-failed',
        requestId: 2,
        url: '',
        reason: 'refused',
        message: 'this page does not fetch Python packages',
      },
    ]);

    const broken = clientWith(() => Promise.reject(new Error('boom')));
    broken.ports[0].event({
      type: 'fetch-package-file',
      requestId: 3,
      fileName: 'd',
      sha256: null,
    });
    await settle();
    const [failed] = broken.packageAnswers().map((a) => a.request);
    expect(failed).toMatchObject({ type: 'package-failed', requestId: 3 });
    expect(failed.type === 'package-failed' && failed.message).toMatch(/d failed: boom/);
  });

  it('answers only the worker that asked: a restarted kernel gets nothing of the old request', async () => {
    let finish: (() => void) | null = null;
    const { client, ports, packageAnswers } = clientWith(
      (_request, onProgress) =>
        new Promise((resolve) => {
          finish = () => {
            onProgress(1, 1);
            resolve({ ok: true, bytes: new ArrayBuffer(1), url: 'u', fromCache: true });
          };
        }),
    );
    ports[0].event({ type: 'fetch-package-file', requestId: 4, fileName: 'e', sha256: null });
    await settle();
    client.restart();
    finish!();
    await settle();
    expect(ports.length).toBe(2);
    expect(packageAnswers()).toEqual([]);
  });
});
