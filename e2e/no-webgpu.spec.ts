import { expect, test } from '@playwright/test';
import { expectCellDone, openNewNotebook, output, setCellSource } from './helpers';

test('without a WebGPU adapter the kernel runs on the cpu backend', async ({ page }) => {
  await openNewNotebook(page);
  await expect(page.getByTestId('backend-badge')).toHaveText('cpu');
  await setCellSource(page, 0, 'print(1 + 1)');
  await page.keyboard.press('Control+Enter');
  await expectCellDone(page, 0);
  await expect(output(page, 0)).toHaveText(/2/);
});
