import { expect, test } from '@playwright/test';
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

test.beforeEach(async ({ page }) => {
  await openNewNotebook(page);
});

test('types into a cell and runs it with Shift+Enter', async ({ page }) => {
  await setCellSource(page, 0, 'const answer: number = 6 * 7;\nprint("answer is", answer)');
  await page.keyboard.press('Shift+Enter');
  await expectCellDone(page, 0);
  await expect(output(page, 0)).toHaveText(/answer is 42/);
  await expect(cell(page, 0)).toHaveAttribute('data-execution-count', '1');
  // Shift+Enter moves on, creating a cell at the end.
  await expect(page.getByTestId('cell')).toHaveCount(2);
});

test('variables persist across cells and top-level await works', async ({ page }) => {
  await setCellSource(page, 0, 'let base = 40;');
  await runCell(page, 0);
  await expectCellDone(page, 0);
  const i = await addCodeCell(
    page,
    'const extra = await new Promise<number>((r) => setTimeout(() => r(2), 10));\nbase + extra',
  );
  await runCell(page, i);
  await expectCellDone(page, i);
  await expect(output(page, i)).toHaveText(/42/);
});

test('an error shows its line and stops run all', async ({ page }) => {
  await setCellSource(page, 0, 'print("first")');
  await addCodeCell(page, 'const ok = 1;\nthrow new Error("broken on purpose");');
  await addCodeCell(page, 'print("must not run")');
  await page.getByTestId('run-all').click();
  await expectCellDone(page, 1, 'error');
  await expect(output(page, 0)).toHaveText(/first/);
  await expect(output(page, 1)).toHaveText(/broken on purpose/);
  await expect(output(page, 1)).toHaveText(/line 2/);
  await expect(cell(page, 2)).toHaveAttribute('data-status', 'idle');
  await expect(output(page, 2)).not.toHaveText(/must not run/);
});

test('interrupt stops an endless loop within 2 s and the next cell runs', async ({ page }) => {
  await setCellSource(page, 0, 'let spins = 0;\nwhile (true) { spins++; }');
  await addCodeCell(page, 'print("after the loop")');
  await runCell(page, 0);
  await expect(cell(page, 0)).toHaveAttribute('data-status', 'running');
  await page.waitForTimeout(300);
  const started = Date.now();
  await page.getByTestId('interrupt').click();
  await expect(cell(page, 0)).not.toHaveAttribute('data-status', 'running', { timeout: 2_000 });
  await waitForKernelIdle(page, 2_000);
  expect(Date.now() - started).toBeLessThan(2_000);
  await expect(page.getByTestId('cell-editor').first()).toContainText('while (true)');
  await runCell(page, 1);
  await expectCellDone(page, 1);
  await expect(output(page, 1)).toHaveText(/after the loop/);
});

test('markdown renders when run', async ({ page }) => {
  await page.getByTestId('add-markdown-cell').last().click();
  const md = cell(page, 1);
  await expect(md).toHaveAttribute('data-cell-type', 'markdown');
  await md.getByTestId('cell-editor').click();
  await page.keyboard.insertText('# Title here\n\nSome **bold** words.');
  await page.keyboard.press('Shift+Enter');
  await expect(md.locator('h1')).toHaveText('Title here');
  await expect(md.locator('strong')).toHaveText('bold');
});

test('the backend badge says webgpu', async ({ page }) => {
  await expect(page.getByTestId('backend-badge')).toHaveText('webgpu');
});
