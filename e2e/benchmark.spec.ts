/**
 * "Benchmark this device" in the timing panel, on SwiftShader: the panel's own kernel runs the
 * benchmark's products and steps at the emulation's small sizes (after the panel's three
 * comparisons, which start when it opens), shows the table with numbers, and copies it as
 * Markdown.
 */
import { expect, test } from '@playwright/test';
import { openNewNotebook } from './helpers';

test('benchmarks the device and copies the table as Markdown', async ({ page, context }) => {
  test.setTimeout(600_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openNewNotebook(page);
  await page.getByTestId('open-timing-panel').click();
  const panel = page.getByTestId('timing-panel');
  const button = panel.getByTestId('benchmark-device');
  await expect(button).toBeEnabled({ timeout: 60_000 });
  await button.click();
  await expect(button).toHaveAttribute('data-state', 'running');
  await expect(button).toHaveAttribute('data-state', 'done', { timeout: 540_000 });

  const results = panel.getByTestId('benchmark-results');
  await expect(results).toBeVisible();
  expect(Number(await results.getAttribute('data-peak-gflops'))).toBeGreaterThan(0);
  await expect(results).toContainText('google');
  const rows = results.locator('tbody tr');
  await expect(rows).toHaveCount(4);
  const matmul = rows.first().locator('td');
  await expect(matmul.nth(0)).toHaveText('matmul m=256 k=256 n=256');
  // GPU and CPU: a time, a run count and GFLOPS; % of peak; GPU / CPU.
  await expect(matmul.nth(1)).toHaveText(/^[\d.]+ (ms|s|µs) n=\d+ \([\d.]+ GFLOPS\)$/);
  // % of the FMA peak timed beside the product, and that peak's GFLOPS.
  await expect(matmul.nth(2)).toHaveText(/^\d+% of [\d.]+$/);
  await expect(matmul.nth(3)).toHaveText(/^[\d.]+ (ms|s|µs) n=\d+ \([\d.]+ GFLOPS\)$/);
  await expect(matmul.nth(4)).toHaveText(/^[\d.]+×$/);
  const step = rows.nth(2).locator('td');
  await expect(step.nth(0)).toHaveText('cnn-step batch=16');
  await expect(step.nth(1)).toHaveText(/^[\d.]+ (ms|s) n=\d+$/);
  await expect(step.nth(4)).toHaveText(/^[\d.]+×$/);

  await panel.getByTestId('benchmark-copy').click();
  await expect(panel.getByTestId('benchmark-copy')).toHaveAttribute('data-state', 'copied');
  const markdown = await page.evaluate(() => navigator.clipboard.readText());
  const lines = markdown.trimEnd().split('\n');
  expect(lines[0]).toMatch(
    /^gpubook device benchmark, .+\. Adapter: \*\*.+\*\*, measured FMA peak [\d.]+ GFLOPS\.$/,
  );
  expect(lines).toContain('| case | GPU | GPU % of peak | CPU | GPU / CPU |');
  expect(lines).toContain('| --- | --- | --- | --- | --- |');
  expect(lines.filter((l) => /^\| (matmul|cnn-step|linreg-step) /.test(l))).toHaveLength(4);
});
