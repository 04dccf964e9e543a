/**
 * Issue 8's classroom pieces: the home page says which WebGPU adapter notebooks will use and lets
 * teachers copy chapter links; presentation mode shows one section at a time and steps by keys.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  addCodeCell,
  cell,
  expectCellDone,
  openNewNotebook,
  output,
  setCellSource,
} from './helpers';
import { expectSaved, openNotebookId } from './persistence-helpers';

test('home page states the adapter and copies chapter links', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  const capabilities = page.getByTestId('browser-capabilities');
  // The webgpu project runs Chromium on SwiftShader: it must be called an emulation.
  await expect(capabilities).toHaveAttribute('data-kind', 'emulated');
  await expect(capabilities).toContainText('swiftshader');
  await expect(capabilities).toContainText('CPU emulation of a GPU');

  // One per bundled chapter, each language's edition included (public/notebooks/index.json).
  const index = JSON.parse(readFileSync('public/notebooks/index.json', 'utf8')) as {
    chapters: unknown[];
  };
  const buttons = page.getByTestId('copy-chapter-link');
  await expect(buttons).toHaveCount(index.chapters.length);
  const torch = page.locator('[data-testid="copy-chapter-link"][data-chapter-id="torch-gpu"]');
  await torch.click();
  await expect(torch).toHaveText('Copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.endsWith('?open=torch-gpu')).toBe(true);
  expect(copied.startsWith(new URL(page.url()).origin)).toBe(true);

  // The copied link opens the chapter.
  await page.goto(copied);
  await expect(page.getByTestId('notebook')).toBeVisible();
  await expect(page).toHaveURL(/\?nb=/);
});

/** A notebook of three sections: a preface of two code cells, then two headed parts. */
async function threeSections(page: Page): Promise<void> {
  await openNewNotebook(page);
  const id = await openNotebookId(page);
  await setCellSource(page, 0, 'console.log("first " + 6 * 7)');
  let last = 0;
  for (const n of [2, 3]) {
    await page.getByTestId('add-markdown-cell').last().click();
    await expect(page.getByTestId('cell')).toHaveCount(last + 2);
    await setCellSource(page, last + 1, `# Part ${n}`);
    last = await addCodeCell(page, `console.log("part ${n}")`);
  }
  await expect(page.getByTestId('cell')).toHaveCount(5);
  await expectSaved(page, id, 4, 'console.log("part 3")');
}

test('presentation mode from the toolbar steps by section and Escape leaves', async ({ page }) => {
  await threeSections(page);
  const cellsBefore = await page.getByTestId('cell').count();
  await page.getByTestId('present-toggle').click();
  const presentation = page.getByTestId('presentation');
  await expect(presentation).toBeVisible();
  await expect(page).toHaveURL(/#present$/);
  await expect(presentation).toHaveAttribute('data-sections', '3');
  // It opens on the section of the cell last edited (part 3's code), alone on screen.
  await expect(presentation).toHaveAttribute('data-section', '2');
  await expect(page.getByTestId('cell')).toHaveCount(2);
  await expect(cell(page, 0)).toContainText('Part 3');

  await page.keyboard.press('ArrowLeft');
  await expect(presentation).toHaveAttribute('data-section', '1');
  await page.keyboard.press('PageUp');
  await expect(presentation).toHaveAttribute('data-section', '0');
  await expect(page.getByTestId('cell')).toHaveCount(1);
  await page.keyboard.press('ArrowLeft');
  await expect(presentation).toHaveAttribute('data-section', '0');
  await page.keyboard.press('ArrowRight');
  await expect(presentation).toHaveAttribute('data-section', '1');
  await expect(page.getByTestId('cell')).toHaveCount(2);
  await expect(cell(page, 0)).toContainText('Part 2');
  await page.keyboard.press('PageDown');
  await expect(presentation).toHaveAttribute('data-section', '2');
  await page.keyboard.press('ArrowRight');
  await expect(presentation).toHaveAttribute('data-section', '2');
  await page.keyboard.press('PageUp');
  await expect(presentation).toHaveAttribute('data-section', '1');

  // The editor still works in presentation: Shift+Enter runs the focused cell.
  await cell(page, 1).getByTestId('cell-editor').click();
  await page.keyboard.press('Shift+Enter');
  await expectCellDone(page, 1);
  await expect(output(page, 1)).toContainText('part 2');
  // Arrow keys inside the editor move its cursor, not the slides.
  await cell(page, 1).getByTestId('cell-editor').click();
  await page.keyboard.press('ArrowRight');
  await expect(presentation).toHaveAttribute('data-section', '1');

  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('Escape');
  await expect(presentation).toHaveCount(0);
  await expect(page.getByTestId('notebook')).toBeVisible();
  expect(new URL(page.url()).hash).toBe('');
  await expect(page.getByTestId('cell')).toHaveCount(cellsBefore);
});

test('#present in the URL opens presentation mode', async ({ page }) => {
  await threeSections(page);
  const url = new URL(page.url());
  // Loading the page with #present starts in the mode.
  await page.goto('/');
  await page.goto(`${url.pathname}${url.search}#present`);
  const presentation = page.getByTestId('presentation');
  await expect(presentation).toHaveAttribute('data-sections', '3');
  await expect(presentation).toHaveAttribute('data-section', '0');
  await expect(cell(page, 0)).toContainText('first');
  await page.keyboard.press('ArrowRight');
  await expect(presentation).toHaveAttribute('data-section', '1');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('notebook')).toBeVisible();

  // Setting the hash on an open page enters the mode too.
  await page.evaluate(() => {
    window.location.hash = 'present';
  });
  await expect(presentation).toBeVisible();
  await page.getByTestId('present-toggle').click();
  await expect(presentation).toHaveCount(0);
});
