/**
 * Links that bring notebooks in: `?open=` (bundled chapters, trusted, params reach cells), `#nb=`
 * (shared, untrusted until the user says so), the share dialog, and every kind of bad link ending
 * in the error banner with the app still working and saved notebooks untouched.
 */
import { deflateRawSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import {
  addCodeCell,
  cell,
  expectCellDone,
  openNewNotebook,
  output,
  runCell,
  setCellSource,
  waitForKernelIdle,
} from './helpers';
import {
  expectSaved,
  listedIds,
  nbformat,
  openNotebookId,
  payloadFor,
  storedCells,
} from './persistence-helpers';

test('?open= makes a trusted local copy of a bundled chapter, and its params reach cells', async ({
  page,
}) => {
  await page.goto('/?open=torch-gpu&size=test');
  await expect(page.getByTestId('notebook')).toBeVisible();
  const id = await openNotebookId(page);
  // The link is replaced by the copy's own URL: a reload must not make another copy.
  const url = new URL(page.url());
  expect(url.searchParams.get('open')).toBeNull();
  expect(url.searchParams.get('nb')).toBe(id);
  expect(url.searchParams.get('size')).toBe('test');
  await expect(page.locator('.toolbar-title')).toHaveValue(/PyTorch/);

  const first = page.locator('[data-testid="cell"][data-cell-type="code"]').first();
  await waitForKernelIdle(page);
  await first.getByTestId('run-cell').click();
  await expect(page.getByTestId('trust-dialog')).toBeHidden();
  await expect(first).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await expect(first.getByTestId('cell-output')).toHaveText(/size: test/);

  await page.reload();
  await expect(page.getByTestId('notebook')).toHaveAttribute('data-notebook-id', id);
  await page.getByTestId('back-home').click();
  expect(await listedIds(page)).toEqual([id]);
});

test('a shared link opens as a copy whose code runs only after trust-run', async ({
  page,
  context,
}) => {
  await openNewNotebook(page);
  await setCellSource(page, 0, 'const shared = 20 + 1;\nprint("shared ran", shared * 2)');
  await runCell(page, 0);
  await expectCellDone(page, 0);
  await addCodeCell(page, 'print("second cell")');

  await page.getByTestId('share-button').click();
  const linkInput = page.getByTestId('share-link');
  await expect(linkInput).toHaveValue(/#nb=/);
  const link = await linkInput.inputValue();
  await expect(page.getByTestId('share-length')).toContainText(
    `${link.length.toLocaleString('en-US')} characters`,
  );
  await expect(page.getByTestId('share-too-long')).toBeHidden();

  const reader = await context.newPage();
  await reader.goto(link);
  await expect(reader.getByTestId('notebook')).toBeVisible();
  expect(new URL(reader.url()).hash).toBe('');
  await expect(cell(reader, 0).getByTestId('cell-editor')).toContainText('print("shared ran"');
  // Outputs were left out of the link, and nothing has run.
  await expect(output(reader, 0)).toHaveText('');
  await expect(cell(reader, 0)).toHaveAttribute('data-execution-count', '');
  await waitForKernelIdle(reader);

  await reader.getByTestId('run-all').click();
  await expect(reader.getByTestId('trust-dialog')).toBeVisible();
  await expect(cell(reader, 0)).toHaveAttribute('data-status', 'idle');
  await expect(output(reader, 0)).toHaveText('');
  await expect(cell(reader, 0)).toHaveAttribute('data-execution-count', '');

  await reader.getByTestId('trust-run').click();
  await expect(reader.getByTestId('trust-dialog')).toBeHidden();
  await expectCellDone(reader, 1);
  await expect(output(reader, 0)).toHaveText(/shared ran 42/);
  await expect(output(reader, 1)).toHaveText(/second cell/);

  // Trust stays with the copy.
  await reader.reload();
  await waitForKernelIdle(reader);
  await runCell(reader, 1);
  await expectCellDone(reader, 1);
  await expect(reader.getByTestId('trust-dialog')).toBeHidden();
  await reader.close();
});

test('the share dialog warns about long links and offers the .ipynb instead', async ({ page }) => {
  await openNewNotebook(page);
  // Random text barely compresses: with outputs, the link passes 8,000 characters.
  await setCellSource(
    page,
    0,
    'let noise = "";\nfor (let i = 0; i < 1500; i++) noise += Math.random().toString(36).slice(2, 10);\nprint(noise)',
  );
  await runCell(page, 0);
  await expectCellDone(page, 0);
  await page.getByTestId('share-button').click();
  await expect(page.getByTestId('share-link')).toHaveValue(/#nb=/);
  await expect(page.getByTestId('share-too-long')).toBeHidden();
  const short = Number(await page.getByTestId('share-length').getAttribute('data-length'));
  expect(short).toBeLessThan(8_000);

  await page.getByTestId('share-include-outputs').check();
  await expect(page.getByTestId('share-too-long')).toBeVisible();
  const long = Number(await page.getByTestId('share-length').getAttribute('data-length'));
  expect(long).toBeGreaterThan(8_000);
  expect((await page.getByTestId('share-link').inputValue()).length).toBe(long);
  const downloading = page.waitForEvent('download');
  await page.getByTestId('share-too-long').getByRole('button').click();
  expect((await downloading).suggestedFilename()).toMatch(/\.ipynb$/);
});

/** A saved notebook that every bad link must leave alone. */
async function keepOneNotebook(page: Page): Promise<string> {
  await openNewNotebook(page);
  const id = await openNotebookId(page);
  await setCellSource(page, 0, 'print("precious")');
  await expectSaved(page, id, 0, 'print("precious")');
  return id;
}

const validPayload = payloadFor(nbformat('ok', [{ cell_type: 'code', source: 'print(1)' }]));

const BAD_LINKS: [string, string, RegExp][] = [
  ['path traversal', '/?open=../x', /not the name of a bundled notebook/],
  ['encoded traversal', '/?open=..%2F..%2Findex', /not the name of a bundled notebook/],
  ['missing chapter', '/?open=no-such-chapter', /no bundled notebook called “no-such-chapter”/],
  ['empty payload', '/#nb=', /empty/],
  ['not base64', '/#nb=%%%not*base64', /characters that base64url never uses|damaged/],
  ['truncated', `/#nb=${validPayload.slice(0, 13)}`, /damaged/],
  [
    'not JSON',
    `/#nb=${deflateRawSync(Buffer.from('this is not json')).toString('base64url')}`,
    /not valid JSON/,
  ],
  ['wrong schema', `/#nb=${payloadFor({ nbformat: 3, worksheets: [] })}`, /nbformat 4/],
  [
    'decompression bomb',
    `/#nb=${deflateRawSync(Buffer.alloc(48 * 1024 * 1024, 0x20)).toString('base64url')}`,
    /inflate past/,
  ],
];

test('every kind of bad link shows the banner and leaves a working app and the notebooks', async ({
  page,
}) => {
  const id = await keepOneNotebook(page);
  for (const [name, link, message] of BAD_LINKS) {
    await page.goto(link);
    const banner = page.getByTestId('error-banner');
    await expect(banner, name).toBeVisible();
    await expect(banner, name).toHaveText(message);
    // Home page, usable, with the notebook still there and unchanged.
    await expect(page.getByTestId('new-notebook'), name).toBeVisible();
    expect(await listedIds(page), name).toEqual([id]);
    expect((await storedCells(page, id))?.[0].source, name).toBe('print("precious")');
    expect(new URL(page.url()).hash, name).toBe('');
    expect(new URL(page.url()).searchParams.get('open'), name).toBeNull();
    await page.getByTestId('dismiss-error').click();
    await expect(banner, name).toBeHidden();
  }
  // Still working: open the notebook and run it.
  await page.getByTestId('notebook-list-item').click();
  await waitForKernelIdle(page);
  await runCell(page, 0);
  await expectCellDone(page, 0);
  await expect(output(page, 0)).toHaveText(/precious/);
});

test('a bad link pasted into an open tab (hash change) also ends in the banner', async ({
  page,
}) => {
  const id = await keepOneNotebook(page);
  await page.evaluate(() => {
    window.location.hash = '#nb=AAAA';
  });
  await expect(page.getByTestId('error-banner')).toBeVisible();
  await expect(page.getByTestId('new-notebook')).toBeVisible();
  expect(await listedIds(page)).toEqual([id]);
});
