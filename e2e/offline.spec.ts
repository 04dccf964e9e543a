/**
 * After one visit the app works with the network off: the service worker serves the shell, the
 * kernel worker (with its own CSP, so cells still compile), bundled chapters and data already
 * used — and every response it serves keeps the page cross-origin isolated.
 */
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
import { expectSaved, openNotebookId } from './persistence-helpers';

test('offline reload: shell, kernel, notebooks, chapters and used data', async ({
  page,
  context,
}) => {
  await openNewNotebook(page);
  const id = await openNotebookId(page);
  await setCellSource(page, 0, 'print("offline", 6 * 7)');
  await expectSaved(page, id, 0, 'print("offline", 6 * 7)');
  // The service worker is installed (everything precached) and controls the page.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
      );
    }
  });
  // Data is cached on first use: use one file now.
  const dataOnline = await page.evaluate(async () => (await fetch('/data/index.json')).status);
  expect(dataOnline).toBe(200);

  await context.setOffline(true);
  const response = await page.reload();
  expect(response?.fromServiceWorker()).toBe(true);
  await expect(page.getByTestId('notebook')).toHaveAttribute('data-notebook-id', id);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  // The network really is off: something never fetched before cannot load.
  const uncached = await page.evaluate(() =>
    fetch('/data/sotu/corpus.json.gz').then(
      (r) => r.status,
      () => 'failed',
    ),
  );
  expect(uncached).not.toBe(200);
  expect(await page.evaluate(async () => (await fetch('/data/index.json')).status)).toBe(200);

  // The kernel worker comes from the cache and still compiles cells (its CSP allows eval).
  await waitForKernelIdle(page);
  await runCell(page, 0);
  await expectCellDone(page, 0);
  await expect(output(page, 0)).toHaveText(/offline 42/);
  await expect(cell(page, 0).getByTestId('cell-editor')).toContainText('print("offline"');

  // A bundled chapter opens offline too.
  await page.goto('/?open=tf-single-gpu&size=test');
  await expect(page.getByTestId('notebook')).toBeVisible();
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await context.setOffline(false);
});
