/**
 * Notebooks last and travel: autosave to IndexedDB (edit → reload → still there), the home list
 * (rename, duplicate, delete with undo), .ipynb export → import as a new untrusted notebook, and
 * two tabs on one notebook never overwriting each other silently.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import {
  cell,
  expectCellDone,
  openNewNotebook,
  output,
  runCell,
  setCellSource,
  waitForKernelIdle,
} from './helpers';
import { expectSaved, listedIds, openNotebookId, storedCells } from './persistence-helpers';

test('an edited and run notebook comes back after a reload, outputs included', async ({ page }) => {
  await openNewNotebook(page);
  const id = await openNotebookId(page);
  const source = 'const kept = 6 * 7;\nprint("kept is", kept)';
  await setCellSource(page, 0, source);
  await expectSaved(page, id, 0, source);
  await runCell(page, 0);
  await expectCellDone(page, 0);
  await expect(output(page, 0)).toHaveText(/kept is 42/);
  await expect.poll(async () => (await storedCells(page, id))?.[0].outputs.length).toBe(1);

  await page.reload();
  await expect(page.getByTestId('notebook')).toHaveAttribute('data-notebook-id', id);
  await expect(cell(page, 0).getByTestId('cell-editor')).toContainText('print("kept is", kept)');
  await expect(output(page, 0)).toHaveText(/kept is 42/);
  await expect(cell(page, 0)).toHaveAttribute('data-execution-count', '1');
  // A trusted notebook of one's own runs again without asking.
  await waitForKernelIdle(page);
  await runCell(page, 0);
  await expectCellDone(page, 0);
  await expect(page.getByTestId('trust-dialog')).toBeHidden();
});

test('the home list renames, duplicates, and deletes with undo', async ({ page }) => {
  await openNewNotebook(page);
  const id = await openNotebookId(page);
  await setCellSource(page, 0, 'print("original")');
  await expectSaved(page, id, 0, 'print("original")');
  await page.getByTestId('back-home').click();

  const item = page.locator(`[data-testid="notebook-list-item"][data-notebook-id="${id}"]`);
  await expect(item).toBeVisible();
  const row = page.locator('li', { has: item });
  await row.getByTestId('rename-notebook').click();
  await page.getByTestId('rename-input').fill('Experiments');
  await page.getByTestId('rename-input').press('Enter');
  await expect(item).toContainText('Experiments');

  await row.getByTestId('duplicate-notebook').click();
  await expect(page.getByTestId('notebook-list-item')).toHaveCount(2);
  await expect(page.getByTestId('notebook-list-item').first()).toContainText('Copy of Experiments');
  const copyId = (await listedIds(page)).find((x) => x !== id) as string;
  expect(copyId).toBeTruthy();
  expect((await storedCells(page, copyId))?.[0].source).toBe('print("original")');

  await row.getByTestId('delete-notebook').click();
  await expect(page.getByTestId('notebook-list-item')).toHaveCount(1);
  expect(await storedCells(page, id)).toBeNull();
  await page.getByTestId('undo-delete').click();
  await expect(page.getByTestId('notebook-list-item')).toHaveCount(2);
  expect((await storedCells(page, id))?.[0].source).toBe('print("original")');

  await page.reload();
  expect(new Set(await listedIds(page))).toEqual(new Set([id, copyId]));
  await expect(item).toContainText('Experiments');
});

test('export .ipynb, then import it: a new, untrusted notebook with the same cells', async ({
  page,
}, testInfo) => {
  await openNewNotebook(page);
  const id = await openNotebookId(page);
  await setCellSource(page, 0, 'print("from the file")');
  await runCell(page, 0);
  await expectCellDone(page, 0);
  await page.locator('.toolbar-title').fill('Round trip');

  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-ipynb').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Round trip.ipynb');
  const path = testInfo.outputPath('round-trip.ipynb');
  await download.saveAs(path);
  const file = JSON.parse(readFileSync(path, 'utf8'));
  expect(file.nbformat).toBe(4);
  expect(file.metadata.kernelspec.name).toBe('gpubook');
  expect(file.cells[0].source.join('')).toBe('print("from the file")');
  expect(file.cells[0].outputs[0]).toMatchObject({ output_type: 'stream', name: 'stdout' });

  await page.getByTestId('back-home').click();
  await page.getByTestId('import-ipynb').setInputFiles(path);
  await expect(page.getByTestId('notebook')).toBeVisible();
  const importedId = await openNotebookId(page);
  expect(importedId).not.toBe(id);
  await expect(page.locator('.toolbar-title')).toHaveValue('Round trip');
  await expect(cell(page, 0).getByTestId('cell-editor')).toContainText('print("from the file")');
  await expect(output(page, 0)).toHaveText(/from the file/);

  // Imported code waits for trust.
  await waitForKernelIdle(page);
  await page.getByTestId('run-all').click();
  await expect(page.getByTestId('trust-dialog')).toBeVisible();
  await page.getByTestId('trust-run').click();
  await expectCellDone(page, 0);
  await page.getByTestId('back-home').click();
  await expect(page.getByTestId('notebook-list-item')).toHaveCount(2);
});

test('two tabs on one notebook: no silent overwrite; reload theirs, or keep mine as a copy', async ({
  page,
  context,
}) => {
  await openNewNotebook(page);
  const id = await openNotebookId(page);
  await setCellSource(page, 0, 'print("first")');
  await expectSaved(page, id, 0, 'print("first")');

  const other = await context.newPage();
  await other.goto(page.url());
  await expect(other.getByTestId('notebook')).toHaveAttribute('data-notebook-id', id);
  await expect(cell(other, 0).getByTestId('cell-editor')).toContainText('print("first")');

  // Tab 1 edits: tab 2 is told, and may take that version.
  await setCellSource(page, 0, 'print("tab one")');
  await expectSaved(page, id, 0, 'print("tab one")');
  await expect(other.getByTestId('conflict-notice')).toBeVisible();
  await other.getByTestId('conflict-reload').click();
  await expect(other.getByTestId('conflict-notice')).toBeHidden();
  await expect(cell(other, 0).getByTestId('cell-editor')).toContainText('print("tab one")');

  // Both edit: whoever saves second is refused, and keeps their text as a copy.
  await setCellSource(other, 0, 'print("tab two")');
  await expectSaved(other, id, 0, 'print("tab two")');
  await setCellSource(page, 0, 'print("tab one again")');
  await expect(page.getByTestId('conflict-notice')).toBeVisible();
  expect((await storedCells(page, id))?.[0].source).toBe('print("tab two")');
  await page.getByTestId('conflict-keep-mine').click();
  await expect(page.getByTestId('notebook')).not.toHaveAttribute('data-notebook-id', id);
  const copyId = await openNotebookId(page);
  await expect(cell(page, 0).getByTestId('cell-editor')).toContainText('print("tab one again")');
  await expectSaved(page, copyId, 0, 'print("tab one again")');
  expect((await storedCells(page, id))?.[0].source).toBe('print("tab two")');
  await other.close();
});

test('a file that is not a notebook shows the banner and changes nothing', async ({ page }) => {
  await openNewNotebook(page);
  const id = await openNotebookId(page);
  await page.getByTestId('back-home').click();
  const files = [
    { name: 'notes.ipynb', body: 'just some notes', message: /not valid JSON/ },
    { name: 'old.ipynb', body: '{"nbformat": 3, "worksheets": []}', message: /nbformat 4/ },
    { name: 'empty.ipynb', body: '', message: /is empty/ },
  ];
  for (const file of files) {
    await page.getByTestId('import-ipynb').setInputFiles({
      name: file.name,
      mimeType: 'application/json',
      buffer: Buffer.from(file.body),
    });
    await expect(page.getByTestId('error-banner')).toHaveText(file.message);
    expect(await listedIds(page)).toEqual([id]);
    await page.getByTestId('dismiss-error').click();
  }
  await expect(page.getByTestId('new-notebook')).toBeEnabled();
});
