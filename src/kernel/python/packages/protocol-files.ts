/**
 * Package files asked of the page over the kernel protocol: each request is a
 * `fetch-package-file` event, answered by `package-progress`* then `package-fetched` or
 * `package-failed` with the same requestId (the page holds the package base and the cache).
 */
import type {
  FetchPackageFileEvent,
  PackageFailedRequest,
  PackageFetchedRequest,
  PackageProgressRequest,
} from '../../protocol';
import type { FetchProgress } from './fetch-verified';
import { PackageFetchError } from './fetch-verified';
import type { PackageFile, PackageFiles } from './package-files';

type Answer = PackageProgressRequest | PackageFetchedRequest | PackageFailedRequest;

interface Pending {
  resolve(file: PackageFile): void;
  reject(error: PackageFetchError): void;
  onProgress: FetchProgress;
}

export class ProtocolPackageFiles implements PackageFiles {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(private readonly post: (event: FetchPackageFileEvent) => void) {}

  fetch(fileName: string, sha256: string | null, onProgress: FetchProgress): Promise<PackageFile> {
    return this.ask({ fileName, sha256 }, onProgress);
  }

  fetchPyPI(url: string, sha256: string | null, onProgress: FetchProgress): Promise<PackageFile> {
    const fileName = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return this.ask({ fileName, sha256, source: 'pypi', url }, onProgress);
  }

  /** One of the page's answers; ones for requests no longer pending are dropped. */
  answer(message: Answer): void {
    const pending = this.pending.get(message.requestId);
    if (!pending) return;
    switch (message.type) {
      case 'package-progress':
        pending.onProgress(message.loaded, message.total);
        break;
      case 'package-fetched':
        this.pending.delete(message.requestId);
        pending.resolve({
          bytes: new Uint8Array(message.bytes),
          url: message.url,
          fromCache: message.fromCache,
        });
        break;
      case 'package-failed':
        this.pending.delete(message.requestId);
        // The status, for callers that tell a missing file from other errors.
        pending.reject(
          new PackageFetchError(
            message.url,
            message.reason,
            message.message,
            message.reason === 'http'
              ? Number(/HTTP (\d{3})\b/.exec(message.message)?.[1]) || null
              : null,
          ),
        );
        break;
    }
  }

  private ask(
    request: Omit<FetchPackageFileEvent, 'type' | 'requestId'>,
    onProgress: FetchProgress,
  ): Promise<PackageFile> {
    const requestId = ++this.nextId;
    return new Promise<PackageFile>((resolve, reject) => {
      this.pending.set(requestId, { resolve, reject, onProgress });
      this.post({ type: 'fetch-package-file', requestId, ...request });
    });
  }
}
