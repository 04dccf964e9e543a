/**
 * Rich outputs end to end on SwiftShader: a fit's live chart and progress bars, tqdm, an image
 * grid, compareDevices, the timing panel, and outputs after a reload.
 * Sizes are tiny: SwiftShader is a CPU emulation.
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
} from './helpers';

// One statement per line: the editor's auto-closing brackets garble text typed with a bracket
// left open at the end of a line.
const FIT_CELL = `torch.manualSeed(0);
const X = torch.rand([96, 4]);
const y = X.sum(1).gt(2);
const dl = new torch.utils.data.DataLoader(new torch.utils.data.TensorDataset(X, y), { batchSize: 12 });
const net = new nn.Sequential(new nn.Linear(4, 8), new nn.ReLU(), new nn.Linear(8, 2));
const metricsDict = { acc: new torchmetrics.Accuracy({ task: 'multiclass', numClasses: 2 }) };
const optimizer = new optim.Adam(net.parameters(), { lr: 0.05 });
const model = new torchkeras.KerasModel(net, { lossFn: new nn.CrossEntropyLoss(), metricsDict, optimizer });
const history = await model.fit({ trainData: dl, valData: dl, epochs: 6, patience: 10 });`;

/** Records every data-points value any chart shows from now on (a fast fit may skip frames). */
async function recordChartPoints(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { __chartPoints: number[] }).__chartPoints = seen;
    const note = () => {
      for (const el of document.querySelectorAll('[data-testid="chart"]')) {
        seen.push(Number(el.getAttribute('data-points')));
      }
    };
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-points'],
    });
  });
}

test.beforeEach(async ({ page }) => {
  await openNewNotebook(page);
});

test('a fit draws one live chart that ends with one point per epoch, and its bars reach their end', async ({
  page,
}) => {
  await recordChartPoints(page);
  await setCellSource(page, 0, FIT_CELL);
  await runCell(page, 0);
  const chart = cell(page, 0).getByTestId('chart');
  await expect(chart).toHaveCount(1, { timeout: 60_000 });
  await expectCellDone(page, 0, 'done', 180_000);
  await expect(chart).toHaveCount(1);
  await expect(chart).toHaveAttribute('data-points', '6');
  const series = (await chart.getAttribute('data-series'))?.split(',') ?? [];
  expect(series).toEqual(
    expect.arrayContaining(['train_loss', 'val_loss', 'train_acc', 'val_acc']),
  );
  // It gained points while the fit ran: some frame showed more than none and fewer than all.
  const seen = await page.evaluate(
    () => (window as unknown as { __chartPoints: number[] }).__chartPoints,
  );
  expect(seen.some((n) => n > 0 && n < 6)).toBe(true);
  const bars = cell(page, 0).getByTestId('progress');
  await expect(bars).toHaveCount(2);
  await expect(bars.first()).toHaveAttribute('data-value', '6');
  await expect(bars.first()).toHaveAttribute('data-max', '6');
  await expect(output(page, 0)).toContainText('6/6 [');
});

test('tqdm over a DataLoader reaches its max', async ({ page }) => {
  await setCellSource(
    page,
    0,
    `const dl = new torch.utils.data.DataLoader(new torch.utils.data.TensorDataset(torch.rand([40, 3]), torch.rand([40])), { batchSize: 5 });
let batches = 0;
for await (const [x, y] of tqdm(dl, { desc: 'batches' })) batches++;
print('batches', batches)`,
  );
  await runCell(page, 0);
  await expectCellDone(page, 0);
  const bar = cell(page, 0).getByTestId('progress');
  await expect(bar).toHaveAttribute('data-value', '8');
  await expect(bar).toHaveAttribute('data-max', '8');
  await expect(output(page, 0)).toContainText('8/8 [');
  await expect(output(page, 0)).toContainText('batches 8');
});

test('an image grid of MNIST digits renders as a PNG', async ({ page }) => {
  await setCellSource(
    page,
    0,
    `const ds = await torchvision.datasets.MNIST({ train: false, transform: torchvision.transforms.ToTensor() });
const images = [];
const labels = [];
for (let i = 0; i < 9; i++) {
  const [img, label] = ds.get(i);
  images.push(img);
  labels.push(\`label = \${await label.item()}\`);
}
display(images, { labels });`,
  );
  await runCell(page, 0);
  await expectCellDone(page, 0, 'done', 120_000);
  const img = cell(page, 0).locator('img.output-image');
  await expect(img).toHaveCount(1);
  await expect(img).toHaveAttribute('src', /^data:image\/png;base64,/);
  await expect(img).toHaveAttribute('alt', /9 images 28×28, labels label = 7/);
  const size = await img.evaluate((el: HTMLImageElement) => [el.naturalWidth, el.naturalHeight]);
  expect(size[0]).toBeGreaterThan(3 * 28);
  expect(size[1]).toBeGreaterThan(3 * 28);
});

test('compareDevices prints cpu and gpu rows and draws a chart', async ({ page }) => {
  await setCellSource(
    page,
    0,
    `const square = (device) => torch.matmul(torch.rand([64, 64], { device }), torch.rand([64, 64], { device }));
const rows = await compareDevices(square, { repeat: 2 });
print(rows.length)`,
  );
  await runCell(page, 0);
  await expectCellDone(page, 0, 'done', 120_000);
  const out = output(page, 0);
  await expect(out.locator('tbody tr')).toHaveCount(2);
  await expect(out.locator('tbody tr').nth(0)).toContainText('cpu');
  await expect(out.locator('tbody tr').nth(1)).toContainText('gpu:0');
  await expect(out).toContainText(/SwiftShader|CPU emulation/i);
  const chart = cell(page, 0).getByTestId('chart');
  await expect(chart).toHaveAttribute('data-series', 'time_ms,speedup');
  await expect(chart).toHaveAttribute('data-points', '2');
  await expect(chart.locator('.recharts-bar-rectangle').first()).toBeVisible();
});

test('the timing panel runs the three comparisons and says the GPU is an emulation', async ({
  page,
}) => {
  test.setTimeout(420_000);
  await page.getByTestId('open-timing-panel').click();
  const panel = page.getByTestId('timing-panel');
  await expect(panel).toBeVisible();
  await expect(panel.locator('[data-emulated="true"]')).toContainText('CPU emulation', {
    timeout: 60_000,
  });
  const sections = panel.locator('[data-benchmark]');
  await expect(sections).toHaveCount(3, { timeout: 60_000 });
  for (const id of ['matmul', 'regression', 'mnist']) {
    await expect(panel.locator(`[data-benchmark="${id}"]`)).toHaveAttribute('data-status', 'done', {
      timeout: 300_000,
    });
  }
  await expect(panel.getByTestId('chart')).toHaveCount(3);
  for (const section of await sections.all()) {
    await expect(section.locator('tbody tr')).toHaveCount(2);
    await expect(section).toContainText('gpu:0');
  }
  // The notebook's own kernel was not used.
  await expect(cell(page, 0)).toHaveAttribute('data-execution-count', '');
});

test('chart, progress and image outputs survive a reload', async ({ page }) => {
  await setCellSource(
    page,
    0,
    `const chart = new Chart();
for (let epoch = 1; epoch <= 3; epoch++) chart.log({ epoch, loss: 1 / epoch });
const bar = progress(4);
bar.update(4);
bar.close();
display(torch.rand([4, 1, 8, 8]), { labels: [1, 2, 3, 4] });`,
  );
  await runCell(page, 0);
  await expectCellDone(page, 0);
  await expect(cell(page, 0).getByTestId('chart')).toHaveAttribute('data-points', '3');
  await addCodeCell(page, 'print("saved")');
  await page.waitForTimeout(1_500); // autosave runs 400 ms after the last change
  await page.reload();
  await page.goto('/');
  const items = page.getByTestId('notebook-list-item');
  await expect(items.first()).toBeVisible();
  await items.first().click();
  await expect(page.getByTestId('notebook')).toBeVisible();
  const first = cell(page, 0);
  await expect(first.getByTestId('chart')).toHaveAttribute('data-points', '3');
  await expect(first.getByTestId('progress')).toHaveAttribute('data-value', '4');
  await expect(first.locator('img.output-image')).toHaveAttribute(
    'src',
    /^data:image\/png;base64,/,
  );
});
