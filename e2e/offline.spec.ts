/**
 * After one visit the app works with the network off: the service worker serves the shell, the
 * kernel worker (with its own CSP, so cells still compile), bundled chapters and data already
 * used — and every response it serves keeps the page cross-origin isolated. Data never fetched
 * fails with a message that names the file and says why; the home page's `offline-data` control
 * fetches all of it beforehand.
 */
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
import { expectSaved, openNotebookId } from './persistence-helpers';

/** Waits until the service worker is installed (everything precached) and controls the page. */
async function serviceWorkerInControl(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
      );
    }
  });
}

/** A small cell that reads three MNIST files (manifest, test labels, first test images). */
const LOAD_MNIST = [
  'const ds = await torchvision.datasets.MNIST({ train: false, limit: 4 });',
  'print("mnist", ds.length, String(await ds.targets.tolist()));',
].join('\n');

test('offline reload: shell, kernel, notebooks, chapters and used data', async ({
  page,
  context,
}) => {
  await openNewNotebook(page);
  const id = await openNotebookId(page);
  await setCellSource(page, 0, 'print("offline", 6 * 7)');
  await expectSaved(page, id, 0, 'print("offline", 6 * 7)');
  await serviceWorkerInControl(page);
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

  // A dataset never loaded online fails with a message naming the file and the reason.
  const load = await addCodeCell(page, LOAD_MNIST);
  await runCell(page, load);
  await expectCellDone(page, load, 'error');
  await expect(output(page, load)).toContainText('DataFileError');
  await expect(output(page, load)).toContainText(
    'The MNIST manifest (public/data/mnist/manifest.json)',
  );
  await expect(output(page, load)).toContainText('the browser is offline');
  await expect(output(page, load)).toContainText('fetched and cached on first use');
  await expect(output(page, load)).not.toContainText('Failed to fetch');

  // A bundled chapter opens offline too.
  await page.goto('/?open=tf-single-gpu&size=test');
  await expect(page.getByTestId('notebook')).toBeVisible();
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await context.setOffline(false);
});

test('home page: make all chapter data available offline, then load it offline', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await serviceWorkerInControl(page);
  const control = page.getByTestId('offline-data');
  await expect(control).toHaveAttribute('data-state', 'idle');
  const total = Number(await control.getAttribute('data-total-bytes'));
  expect(total).toBeGreaterThan(1e6);
  await expect(control).toContainText(`(${(total / 1e6).toFixed(1)} MB)`);

  await control.click();
  await expect(control).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(control).toContainText('All chapter data available offline');
  await expect(page.getByTestId('error-banner')).toHaveCount(0);

  await context.setOffline(true);
  // Every file the index lists is served from the cache.
  const statuses = await page.evaluate(async () => {
    const index = (await (await fetch('/data/index.json')).json()) as {
      files: { path: string }[];
    };
    return Promise.all(index.files.map(async (f) => (await fetch(`/data/${f.path}`)).status));
  });
  expect(statuses.length).toBeGreaterThan(10);
  expect(new Set(statuses)).toEqual(new Set([200]));
  // The home page still says so offline.
  await page.reload();
  await expect(page.getByTestId('offline-data')).toHaveAttribute('data-state', 'done');

  // And a cell loads the data with the network off.
  await page.getByTestId('new-notebook').click();
  await expect(page.getByTestId('notebook')).toBeVisible();
  await waitForKernelIdle(page);
  await setCellSource(page, 0, LOAD_MNIST);
  await runCell(page, 0);
  await expectCellDone(page, 0);
  await expect(output(page, 0)).toHaveText(/mnist 4 7,2,1,0/);
  await context.setOffline(false);
});
