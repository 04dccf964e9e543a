/**
 * Where `torch.save` files live in the browser: an IndexedDB object store (through `idb`) in the
 * worker, so saved weights survive reloads and restarts. Separate from the notebooks' database.
 */
import { openDB, type DBSchema } from 'idb';
import type { TensorStore } from '../engine/serialization';

interface FilesDB extends DBSchema {
  files: { key: string; value: Uint8Array };
}

export function indexedDbTensorStore(name = 'gpubook-files'): TensorStore {
  const db = openDB<FilesDB>(name, 1, {
    upgrade(database) {
      database.createObjectStore('files');
    },
  });
  return {
    get: async (file) => (await db).get('files', file),
    put: async (file, bytes) => {
      await (await db).put('files', bytes, file);
    },
    delete: async (file) => {
      await (await db).delete('files', file);
    },
    list: async () => ((await (await db).getAllKeys('files')) as string[]).sort(),
  };
}
