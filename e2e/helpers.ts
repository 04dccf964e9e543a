/**
 * Shared steps for end-to-end tests, written against the test ids of shared/TESTING.md only.
 */
import { expect, type Locator, type Page } from '@playwright/test';

export async function openNewNotebook(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByTestId('new-notebook').click();
  await expect(page.getByTestId('notebook')).toBeVisible();
  await waitForKernelIdle(page);
}

export async function waitForKernelIdle(page: Page, timeout = 60_000): Promise<void> {
  await expect(page.getByTestId('kernel-status')).toHaveAttribute('data-state', 'idle', {
    timeout,
  });
}

export function cell(page: Page, index: number): Locator {
  return page.getByTestId('cell').nth(index);
}

/** Replaces the source of code cell `index` by typing into its editor. */
export async function setCellSource(page: Page, index: number, source: string): Promise<void> {
  const editor = cell(page, index).getByTestId('cell-editor');
  // The start of the first line, as the editor renders it (it may add closing brackets after).
  const start = source.split('\n')[0].trim().slice(0, 20);
  // Typing before the editor has focus loses the keys (seen once on a loaded CI machine: a cell
  // ran empty), so type again until the text shows.
  await expect(async () => {
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(source);
    if (start) await expect(editor).toContainText(start, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/** Adds a code cell at the end holding `source`; returns its index. */
export async function addCodeCell(page: Page, source: string): Promise<number> {
  const before = await page.getByTestId('cell').count();
  await page.getByTestId('add-code-cell').last().click();
  await expect(page.getByTestId('cell')).toHaveCount(before + 1);
  await setCellSource(page, before, source);
  return before;
}

export async function runCell(page: Page, index: number): Promise<void> {
  await cell(page, index).getByTestId('run-cell').click();
}

export async function expectCellDone(
  page: Page,
  index: number,
  status: 'done' | 'error' = 'done',
  timeout = 60_000,
): Promise<void> {
  await expect(cell(page, index)).toHaveAttribute('data-status', status, { timeout });
}

export function output(page: Page, index: number): Locator {
  return cell(page, index).getByTestId('cell-output');
}
