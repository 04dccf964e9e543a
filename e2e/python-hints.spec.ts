/**
 * A Python notebook speaks Python outside its cells too: the device panel's hints are the Python
 * faces' spellings, and a Python cell's editor completes `tf.config.` with their names.
 */
import { expect, test } from '@playwright/test';
import { cell, waitForKernelIdle } from './helpers';

test('a Python notebook shows Python spellings in the device panel and completes tf.config.', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByTestId('new-python-notebook').click();
  await expect(page.getByTestId('notebook-language')).toHaveAttribute('data-language', 'python');
  await waitForKernelIdle(page);

  await page.getByTestId('open-device-panel').click();
  const panel = page.getByTestId('device-panel');
  await expect(panel).toContainText('torch.cuda.empty_cache()');
  await expect(panel).toContainText('tf.config.set_visible_devices([gpu], "GPU")');
  await expect(panel).not.toContainText('emptyCache');
  await page.getByTestId('close-device-panel').click();

  const editor = cell(page, 0).getByTestId('cell-editor');
  await expect(async () => {
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('import tensorflow as tf\n');
    await page.keyboard.type('tf.config.set_vis');
    await expect(page.locator('.suggest-widget')).toContainText('set_visible_devices', {
      timeout: 5_000,
    });
  }).toPass({ timeout: 30_000 });
});
