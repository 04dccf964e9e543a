/** Cache Storage's contract over a Map, for Node tests (Node has no Cache Storage). */
import type { PackageCache } from '../package-cache';

export class MemoryCache implements PackageCache {
  readonly entries = new Map<string, ArrayBuffer>();
  async match(url: string) {
    const bytes = this.entries.get(url);
    return bytes ? new Response(bytes.slice(0)) : undefined;
  }
  async put(url: string, response: Response) {
    this.entries.set(url, await response.arrayBuffer());
  }
  async delete(url: string) {
    return this.entries.delete(url);
  }
}
