/**
 * The device panel on SwiftShader: live memory bars follow an allocation and its release while
 * cells run, emptyCache returns pooled memory, and splitting the GPU into two logical GPUs from
 * the panel restarts the kernel with them — cells then list two GPUs, each with its limit.
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
import { openNotebookId, storedNotebook } from './persistence-helpers';

function bar(page: Page, device: string) {
  return page.locator(`[data-testid="memory-bar"][data-device="${device}"]`);
}

async function openPanel(page: Page): Promise<void> {
  await page.getByTestId('open-device-panel').click();
  await expect(page.getByTestId('device-panel')).toBeVisible();
}

test('memory bars follow an allocation and its release, live while a cell runs', async ({
  page,
}) => {
  await openNewNotebook(page);
  await openPanel(page);
  await expect(bar(page, 'gpu:0')).toHaveAttribute('data-used-bytes', '0');
  await expect(bar(page, 'cpu')).toHaveCount(1);

  // 512 × 1024 float32 = 2 MiB on the GPU, held by a notebook variable.
  await setCellSource(
    page,
    0,
    "const x = torch.ones([512, 1024], { device: 'cuda' });\nprint(x.device);",
  );
  await runCell(page, 0);
  await expectCellDone(page, 0);
  await expect(output(page, 0)).toContainText('gpu:0');
  await expect(bar(page, 'gpu:0')).toHaveAttribute('data-used-bytes', String(512 * 1024 * 4));

  // While this cell waits, the bar already shows its extra 1 MiB; when it ends, both are freed.
  const index = await addCodeCell(
    page,
    "const y = torch.ones([256, 1024], { device: 'cuda' });\n" +
      'await new Promise((resolve) => setTimeout(resolve, 3000));\n' +
      'y.dispose();\nx.dispose();\nprint(torch.cuda.memoryAllocated(0));',
  );
  await runCell(page, index);
  await expect(cell(page, index)).toHaveAttribute('data-status', 'running');
  await expect(bar(page, 'gpu:0')).toHaveAttribute('data-used-bytes', String(768 * 1024 * 4));
  await expect(cell(page, index)).toHaveAttribute('data-status', 'running');
  await expectCellDone(page, index);
  await expect(output(page, index)).toContainText('0');
  await expect(bar(page, 'gpu:0')).toHaveAttribute('data-used-bytes', '0');

  // The freed buffers stay pooled for reuse until emptyCache returns them.
  await expect(bar(page, 'gpu:0')).not.toHaveAttribute('data-pooled-bytes', '0');
  await page.getByTestId('empty-cache').click();
  await expect(bar(page, 'gpu:0')).toHaveAttribute('data-pooled-bytes', '0');
});

test('splitting the GPU into two logical GPUs from the panel', async ({ page }) => {
  await openNewNotebook(page);
  await openPanel(page);
  await expect(bar(page, 'gpu:0')).toHaveAttribute('data-limit-bytes', '');
  await expect(bar(page, 'gpu:1')).toHaveCount(0);

  await page.getByTestId('logical-gpu-count').fill('2');
  const limits = page.getByTestId('logical-memory-limit');
  await expect(limits).toHaveCount(2);
  await limits.nth(0).fill('64');
  await limits.nth(1).fill('32');
  await page.getByTestId('apply-device-settings').click();
  await waitForKernelIdle(page);
  await expect(bar(page, 'gpu:0')).toHaveAttribute('data-limit-bytes', String(64 * 1024 * 1024));
  await expect(bar(page, 'gpu:1')).toHaveAttribute('data-limit-bytes', String(32 * 1024 * 1024));

  await setCellSource(
    page,
    0,
    "const logical = tf.config.listLogicalDevices('GPU');\n" +
      "print(logical.length, 'logical GPUs:', logical.map((d) => d.name).join(', '));\n" +
      'print(torch.cuda.deviceCount());',
  );
  await runCell(page, 0);
  await expectCellDone(page, 0);
  await expect(output(page, 0)).toContainText('2 logical GPUs: /device:GPU:0, /device:GPU:1');

  // The limit is enforced per logical GPU: 48 MiB fits on gpu:0, not on gpu:1.
  const index = await addCodeCell(
    page,
    "const big = torch.zeros([12, 1024, 1024], { device: 'cuda:0' });\n" +
      "print('gpu:0 holds', torch.cuda.memoryAllocated(0));\n" +
      "torch.zeros([12, 1024, 1024], { device: 'cuda:1' });",
  );
  await runCell(page, index);
  await expectCellDone(page, index, 'error');
  await expect(output(page, index)).toContainText('gpu:0 holds 50331648');
  await expect(output(page, index)).toContainText(
    'Out of memory on gpu:1: tried to allocate 48.00 MiB (50331648 bytes) with 0 bytes already in use and a limit of 32.00 MiB (33554432 bytes)',
  );
  await expect(bar(page, 'gpu:0')).toHaveAttribute('data-used-bytes', '50331648');
});

test('the split is saved with the notebook: a reload and a shared link start with it', async ({
  page,
  context,
}) => {
  await openNewNotebook(page);
  await openPanel(page);
  await page.getByTestId('logical-gpu-count').fill('2');
  await page.getByTestId('apply-device-settings').click();
  await waitForKernelIdle(page);
  await expect(bar(page, 'gpu:1')).toHaveCount(1);
  // The split lives in the notebook's metadata: wait for autosave before reloading.
  const id = await openNotebookId(page);
  await expect
    .poll(async () => {
      const metadata = (await storedNotebook(page, id))?.metadata as
        { gpubook?: { devices?: { gpus?: { logical?: unknown[] | null }[] } } } | undefined;
      return metadata?.gpubook?.devices?.gpus?.[0]?.logical?.length ?? 0;
    })
    .toBe(2);

  await page.reload();
  await waitForKernelIdle(page);
  await openPanel(page);
  await expect(bar(page, 'gpu:1')).toHaveCount(1);
  await expect(page.getByTestId('logical-gpu-count')).toHaveValue('2');
  await page.getByTestId('close-device-panel').click();
  await expect(page.getByTestId('device-panel')).toBeHidden();

  await page.getByTestId('share-button').click();
  const link = await page.getByTestId('share-link').inputValue();
  const reader = await context.newPage();
  await reader.goto(link);
  await waitForKernelIdle(reader);
  await openPanel(reader);
  await expect(bar(reader, 'gpu:0')).toHaveCount(1);
  await expect(bar(reader, 'gpu:1')).toHaveCount(1);
  await reader.close();
});
