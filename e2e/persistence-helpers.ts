/**
 * Steps shared by the persistence, link, security and offline tests: reading what IndexedDB
 * holds, waiting for autosave, making `#nb=` payloads with Node's zlib (independent of the app's
 * codec).
 */
import { deflateRawSync } from 'node:zlib';
import { expect, type Page } from '@playwright/test';

export interface StoredCell {
  type: string;
  source: string;
  outputs: unknown[];
  executionCount: number | null;
}

/** The notebook IndexedDB holds under `notebookId` (null if it holds no such notebook). */
export function storedNotebook(
  page: Page,
  notebookId: string,
): Promise<{ cells: StoredCell[]; metadata: Record<string, unknown> } | null> {
  return page.evaluate(async (id) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('gpubook');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      const record = await new Promise<unknown>((resolve, reject) => {
        const request = db.transaction('notebooks').objectStore('notebooks').get(id);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      type Stored = { cells: StoredCell[]; metadata: Record<string, unknown> };
      return (record as { notebook?: Stored } | undefined)?.notebook ?? null;
    } finally {
      db.close();
    }
  }, notebookId);
}

/** The cells IndexedDB holds for `notebookId` (null if it holds no such notebook). */
export async function storedCells(page: Page, notebookId: string): Promise<StoredCell[] | null> {
  return (await storedNotebook(page, notebookId))?.cells ?? null;
}

/**
 * Waits until autosave has written `source` as cell `index` of the notebook. Autosave follows an
 * edit within 0.5 s, but on a loaded 2-core CI machine the editor itself can take seconds to
 * take the typed text, hence the generous timeout (it once ran out at 5 s).
 */
export async function expectSaved(
  page: Page,
  notebookId: string,
  index: number,
  source: string,
): Promise<void> {
  await expect
    .poll(async () => (await storedCells(page, notebookId))?.[index]?.source, { timeout: 15_000 })
    .toBe(source);
}

export async function openNotebookId(page: Page): Promise<string> {
  const id = await page.getByTestId('notebook').getAttribute('data-notebook-id');
  if (!id) throw new Error('no notebook is open');
  return id;
}

export function listedIds(page: Page): Promise<(string | null)[]> {
  return page
    .getByTestId('notebook-list-item')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-notebook-id')));
}

export interface PayloadCell {
  cell_type: 'code' | 'markdown';
  source: string;
}

/** A `#nb=` payload made with Node's zlib: base64url of raw DEFLATE of nbformat 4 JSON. */
export function payloadFor(value: unknown): string {
  return deflateRawSync(Buffer.from(JSON.stringify(value), 'utf8')).toString('base64url');
}

export function nbformat(title: string, cells: PayloadCell[]): unknown {
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'gpubook', display_name: 'TypeScript (WebGPU)', language: 'typescript' },
      gpubook: { title },
    },
    cells: cells.map((c) =>
      c.cell_type === 'code'
        ? { ...c, metadata: {}, outputs: [], execution_count: null }
        : { ...c, metadata: {} },
    ),
  };
}
