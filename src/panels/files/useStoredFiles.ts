/**
 * The page's view of the kernel's file store (the same IndexedDB database torch.save writes in
 * the worker): the listing with sizes, and download / delete / upload, refreshed on demand.
 */
import { useCallback, useEffect, useState } from 'react';
import type { TensorStore } from '../../engine/serialization';
import { indexedDbTensorStore } from '../../kernel/idb-tensor-store';
import { downloadText } from '../../notebook/files/notebook-files';
import { useSnippets } from '../snippets/useSnippets';
import { downloadName, uploadProblem } from './file-names';

export interface StoredFile {
  name: string;
  size: number;
}

let shared: TensorStore | null = null;
/** One connection for the page's lifetime: opening IndexedDB per render would leak handles. */
function store(): TensorStore {
  shared ??= indexedDbTensorStore();
  return shared;
}

async function listFiles(): Promise<StoredFile[]> {
  const names = await store().list();
  // The store keeps no dates, so the list stays in name order; sizes need each value read.
  const sizes = await Promise.all(names.map(async (n) => (await store().get(n))?.byteLength ?? 0));
  return names.map((name, i) => ({ name, size: sizes[i] }));
}

export function useStoredFiles() {
  const [files, setFiles] = useState<StoredFile[] | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const { load } = useSnippets();

  const fail = (error: unknown) =>
    setMessage({ text: error instanceof Error ? error.message : String(error), error: true });

  const refresh = useCallback(async () => {
    try {
      setFiles(await listFiles());
    } catch (error) {
      fail(error);
    }
  }, []);

  // The first read when the panel opens (setState only in the promise's callbacks).
  useEffect(() => {
    let live = true;
    listFiles().then(
      (listed) => live && setFiles(listed),
      (error: unknown) => live && fail(error),
    );
    return () => {
      live = false;
    };
  }, []);

  const download = async (name: string) => {
    try {
      const bytes = await store().get(name);
      if (!bytes) throw new Error(`“${name}” is no longer stored.`);
      downloadText(downloadName(name), new Uint8Array(bytes), 'application/octet-stream');
    } catch (error) {
      fail(error);
    }
  };

  const remove = async (name: string) => {
    try {
      await store().delete(name);
      setMessage(null);
    } catch (error) {
      fail(error);
    }
    await refresh();
  };

  const upload = async (chosen: File[]) => {
    const problems: string[] = [];
    const stored: string[] = [];
    for (const file of chosen) {
      const problem = uploadProblem(file);
      if (problem) {
        problems.push(problem);
        continue;
      }
      try {
        await store().put(file.name, new Uint8Array(await file.arrayBuffer()));
        stored.push(file.name);
      } catch (error) {
        problems.push(`“${file.name}”: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const done = stored.length
      ? `Stored ${stored.map((n) => `“${n}”`).join(', ')}: load with ${load}.`
      : '';
    setMessage({ text: [...problems, done].filter(Boolean).join(' '), error: problems.length > 0 });
    await refresh();
  };

  return { files, message, refresh, download, remove, upload };
}
