/**
 * Where torch.save puts files: an injectable key-value store of bytes. The kernel gives it the
 * browser's IndexedDB; until then (and in tests) files live in memory for the session.
 */

export interface TensorStore {
  get(name: string): Promise<Uint8Array | undefined>;
  put(name: string, bytes: Uint8Array): Promise<void>;
  delete(name: string): Promise<void>;
  list(): Promise<string[]>;
}

/** A store in a Map (copies on the way in and out, as a real store would). */
export function memoryTensorStore(): TensorStore {
  const files = new Map<string, Uint8Array>();
  return {
    get: async (name) => {
      const bytes = files.get(name);
      return bytes ? bytes.slice() : undefined;
    },
    put: async (name, bytes) => {
      files.set(name, bytes.slice());
    },
    delete: async (name) => {
      files.delete(name);
    },
    list: async () => [...files.keys()].sort(),
  };
}

let store: TensorStore = memoryTensorStore();

/** Installs the store (null: back to a fresh in-memory one). */
export function setTensorStore(next: TensorStore | null): void {
  store = next ?? memoryTensorStore();
}

export function getTensorStore(): TensorStore {
  return store;
}
