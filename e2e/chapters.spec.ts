/**
 * Each bundled chapter, opened by its link with the CI size, runs every cell without an error and
 * prints its key results; every hand-written training loop draws its live chart by itself
 * (metric reads, tqdm postfix values, printed epoch logs). Once run, each chapter is exported as
 * `.ipynb` and passes Jupyter's own validator (`nbformat.validate`), with a picture beside every
 * chart.
 */
import { readFileSync } from 'node:fs';
import { expect, test as base, type BrowserContext, type Page } from '@playwright/test';
import { nbformatErrors, nbformatMissing } from '../src/notebook/files/testing/nbformat.ts';
import { waitForKernelIdle } from './helpers';

/**
 * The chapters open one after another in one browser context, as a reader's browser opens them:
 * the autotuner's choices, kept in IndexedDB, carry over, so a chapter whose products were tuned
 * by an earlier one (each Python edition after its TypeScript one) does not time them again.
 * First-use tuning was about three quarters of a GPU chapter's first run on SwiftShader
 * (bench/NOTES.md item 28); since a class tunes only once it has run long enough to pay for it
 * (item 29), the chapters at the test size tune little (the file took 10.9 min, 16.5 before;
 * 6.6–7.5 min since the test size trains on half as many images and documents, about 8 since
 * `compareDevices` tunes in its warm-ups).
 * Every chapter's own cells and assertions are unchanged.
 */
const test = base.extend<object, { chapterContext: BrowserContext }>({
  chapterContext: [
    async ({ browser }, provide, workerInfo) => {
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL });
      await provide(context);
      await context.close();
    },
    { scope: 'worker' },
  ],
  page: async ({ chapterContext }, provide) => {
    const page = await chapterContext.newPage();
    await provide(page);
    await page.close();
  },
});

test.setTimeout(10 * 60_000);

async function runChapter(page: Page, id: string): Promise<string> {
  await page.goto(`/?open=${id}&size=test`);
  await expect(page.getByTestId('notebook')).toBeVisible({ timeout: 30_000 });
  await waitForKernelIdle(page);
  const cells = page.getByTestId('cell');
  const count = await cells.count();
  expect(count).toBeGreaterThan(5);
  await page.getByTestId('run-all').click();
  await expect(page.getByTestId('trust-dialog')).toBeHidden();
  // Every code cell ends done; none ends in error.
  await expect
    .poll(
      async () =>
        page.evaluate(() => {
          const all = [...document.querySelectorAll('[data-testid="cell"][data-cell-type="code"]')];
          const statuses = all.map((c) => c.getAttribute('data-status'));
          if (statuses.includes('error')) return 'error';
          return statuses.every((s) => s === 'done') ? 'done' : 'running';
        }),
      { timeout: 8 * 60_000, intervals: [2_000] },
    )
    .toBe('done');
  const text = await page.getByTestId('cell-output').allInnerTexts();
  expect(text.join('\n')).toContain('size: test');
  await expectValidExport(page, id);
  return text.join('\n');
}

/**
 * The run chapter, downloaded as `.ipynb` (the toolbar's export), passes `nbformat.validate`
 * (Debian's python3-nbformat; without it the check is skipped and the test says so), and every
 * chart in it carries its `image/svg+xml` picture.
 */
async function expectValidExport(page: Page, id: string): Promise<void> {
  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-ipynb').click();
  const path = test.info().outputPath(`${id}.ipynb`);
  await (await downloading).saveAs(path);
  const text = readFileSync(path, 'utf8');
  const file = JSON.parse(text) as {
    cells: { outputs?: { data?: Record<string, unknown> }[] }[];
  };
  const charts = file.cells
    .flatMap((c) => c.outputs ?? [])
    .filter((o) => o.data?.['application/vnd.gpubook.chart+json'] !== undefined);
  expect(charts.length).toBeGreaterThan(0);
  for (const chart of charts) expect(chart.data?.['image/svg+xml']).toBeDefined();
  const missing = nbformatMissing();
  if (missing) {
    test.info().annotations.push({ type: 'skipped: nbformat.validate', description: missing });
    return;
  }
  expect(nbformatErrors(text), `${id}.ipynb, checked by nbformat.validate`).toBeNull();
}

/**
 * The charts drawn in the one cell whose output matches `output`: their series names and the most
 * points any draws (`data-series`, `data-points` of the `chart` test id).
 */
async function cellCharts(
  page: Page,
  output: RegExp,
): Promise<{ series: string[]; points: number }> {
  const cell = page
    .getByTestId('cell')
    .filter({ has: page.getByTestId('cell-output').filter({ hasText: output }) });
  await expect(cell).toHaveCount(1);
  const charts = cell.getByTestId('chart');
  await expect(charts.first()).toBeVisible();
  const attrs = await charts.evaluateAll((els) =>
    els.map((e) => [e.getAttribute('data-series') ?? '', e.getAttribute('data-points') ?? '0']),
  );
  return {
    series: attrs.flatMap(([names]) => names.split(',')).filter((n) => n !== ''),
    points: Math.max(...attrs.map(([, points]) => Number(points))),
  };
}

/** The GradientTape loop's cell draws its four metrics by itself, one point per epoch (2 at test size). */
async function expectLoopChart(page: Page): Promise<void> {
  const { series, points } = await cellCharts(page, /Epoch=1,Loss:/);
  for (const name of ['train_loss', 'train_accuracy', 'valid_loss', 'valid_accuracy'])
    expect(series).toContain(name);
  expect(points).toBe(2);
}

/** The hand-written torch loop's cell charts its tqdm postfix and torchmetrics reads. */
async function expectTorchLoopChart(page: Page): Promise<void> {
  const { series } = await cellCharts(page, /gpu time:/);
  for (const name of ['train_loss', 'train_acc', 'val_acc']) expect(series).toContain(name);
}

test('torch-gpu: devices, timings, regression near w = [2, -3], b = 10, the CNN and its parameter count', async ({
  page,
}) => {
  const out = await runChapter(page, 'torch-gpu');
  expect(out).toContain('if_cuda = true');
  expect(out).toMatch(/cpu: [\d.]+ s on cpu cpu/);
  expect(out).toMatch(/gpu: [\d.]+ s on gpu:0 gpu:0/);
  expect(out).toContain('Total params: 53,994');
  expect(out).toMatch(/cpu [\d.]+ s, gpu [\d.]+ s/);
  // The GPU regression's weights: w ≈ [2, −3], b ≈ 10.
  const fit =
    /w = tensor\(\[\[\s*([-\d.]+),\s*([-\d.]+)\]\], device='gpu:0'.*?b = tensor\(\[\[\s*([-\d.]+)\]\]/s.exec(
      out,
    );
  expect(fit).not.toBeNull();
  const [w1, w2, b] = fit!.slice(1).map(Number);
  expect(Math.abs(w1 - 2)).toBeLessThan(0.3);
  expect(Math.abs(w2 + 3)).toBeLessThan(0.3);
  expect(Math.abs(b - 10)).toBeLessThan(1);
  expect(out).toContain('<All keys matched successfully>');
  await expect(page.getByTestId('chart').first()).toBeVisible();
  await expectTorchLoopChart(page);
  // The regression loop prints { epoch, loss } logs: they draw its chart.
  expect((await cellCharts(page, /X\.device:/)).series).toEqual(['loss']);
});

test('tf-single-gpu: GPU and CPU sums agree, the Conv1D model trains with four metrics', async ({
  page,
}) => {
  const out = await runChapter(page, 'tf-single-gpu');
  const gpu = Number(/gpu sum: ([\d.e+]+)/.exec(out)?.[1]);
  const cpu = Number(/cpu sum: ([\d.e+]+)/.exec(out)?.[1]);
  expect(gpu).toBeGreaterThan(0);
  expect(Math.abs(gpu - cpu) / cpu).toBeLessThan(1e-4);
  expect(out).toMatch(/Total params: [\d,]+/);
  expect(out).toMatch(
    /Epoch=2,Loss:[\d.]+,Accuracy:[\d.]+,Valid Loss:[\d.]+,Valid Accuracy:[\d.]+/,
  );
  await expectLoopChart(page);
});

test('tf-multi-gpu: two logical GPUs, MirroredStrategy fit with top-5, compared with one device', async ({
  page,
}) => {
  const out = await runChapter(page, 'tf-multi-gpu');
  expect(out).toContain('1 Physical GPU, 2 Logical GPUs');
  expect(out).toContain('replicas in sync: 2');
  expect(out).toMatch(/mirrored on 2 logical GPUs: [\d.]+ s; one GPU: [\d.]+ s/);
  expect(out).toMatch(/top_k|top5|sparse_top_k/i);
});

test('torch-gpu-py: the Python edition runs as PyTorch prints it — devices, timings, regression, the CNN, fit and DataParallel', async ({
  page,
}) => {
  const out = await runChapter(page, 'torch-gpu-py');
  expect(out).toContain('if_cuda = True');
  expect(out).toMatch(/cpu: [\d.]+ s on cpu cpu/);
  expect(out).toMatch(/gpu: [\d.]+ s on cuda:0 cuda:0/);
  expect(out).toContain('(conv1): Conv2d(1, 32, kernel_size=(3, 3), stride=(1, 1))');
  expect(out).toMatch(/cpu [\d.]+ s, gpu [\d.]+ s/);
  // The GPU regression's weights, printed as PyTorch prints a tensor: w ≈ [2, −3], b ≈ 10.
  const fit =
    /w = tensor\(\[\[\s*([-\d.]+),\s*([-\d.]+)\]\], device='cuda:0'\) b = tensor\(\[\[\s*([-\d.]+)\]\], device='cuda:0'\)/.exec(
      out,
    );
  expect(fit).not.toBeNull();
  const [w1, w2, b] = fit!.slice(1).map(Number);
  expect(Math.abs(w1 - 2)).toBeLessThan(0.3);
  expect(Math.abs(w2 + 3)).toBeLessThan(0.3);
  expect(Math.abs(b - 10)).toBeLessThan(1);
  expect(out).toMatch(/'val_acc': [\d.]+/);
  expect(out).toContain('<All keys matched successfully>');
  expect(out).toContain('[0]');
  await expect(page.getByTestId('chart').first()).toBeVisible();
  await expectTorchLoopChart(page);
  // The regression loop prints {"epoch": …, "loss": …} dicts: they draw its chart.
  expect((await cellCharts(page, /if on cuda:/)).series).toEqual(['loss']);
});

test('tf-single-gpu-py: the Python edition runs as TensorFlow prints it — device settings, GPU and CPU sums, the Conv1D model and its GradientTape loop', async ({
  page,
}) => {
  const out = await runChapter(page, 'tf-single-gpu-py');
  expect(out).toContain("PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')");
  const gpu = Number(/gpu sum: ([\d.e+]+)/.exec(out)?.[1]);
  const cpu = Number(/cpu sum: ([\d.e+]+)/.exec(out)?.[1]);
  expect(gpu).toBeGreaterThan(0);
  expect(Math.abs(gpu - cpu) / cpu).toBeLessThan(1e-4);
  expect(out).toMatch(/Total params: [\d,]+/);
  expect(out).toMatch(/={80}\d\d:\d\d:\d\d/);
  expect(out).toMatch(
    /Epoch=2,Loss:[\d.]+,Accuracy:[\d.]+,Valid Loss:[\d.]+,Valid Accuracy:[\d.]+/,
  );
  await expectLoopChart(page);
});

test('tf-multi-gpu-py: the Python edition splits the GPU in two and fits with MirroredStrategy, as TensorFlow prints it', async ({
  page,
}) => {
  const out = await runChapter(page, 'tf-multi-gpu-py');
  expect(out).toContain('1 Physical GPU, 2 Logical GPUs');
  expect(out).toContain('replicas in sync: 2');
  expect(out).toMatch(/Total params: [\d,]+/);
  expect(out).toMatch(/'val_sparse_top_k_categorical_accuracy': [\d.]+/);
  expect(out).toMatch(/mirrored on 2 logical GPUs: [\d.]+ s; one GPU: [\d.]+ s/);
});

/**
 * The tiny-GPT chapter in either edition: the validation loss after training (the loop's last
 * printed log) is well below a uniform guess's ln(vocab), the loop's printed logs draw their chart,
 * and sampling continues the prompt by exactly the test size's 60 characters.
 */
async function expectTinyGpt(page: Page, out: string, logPattern: RegExp): Promise<void> {
  expect(out).toContain('1,062,772 characters');
  expect(out).toContain('vocabulary: 77 characters');
  const final = Number(/validation loss ([\d.]+) \(uniform guess 4\.344\)/.exec(out)?.[1]);
  expect(final).toBeLessThan(Math.log(77) - 0.5);
  const { series } = await cellCharts(page, logPattern);
  expect(series).toEqual(expect.arrayContaining(['train_loss', 'val_loss']));
  const prompt = 'The state of our Union is';
  const cell = page
    .getByTestId('cell-output')
    .filter({ hasText: new RegExp(`^${prompt}`) })
    .last();
  const sample = (await cell.innerText()).replace(/\n$/, '');
  expect(sample.startsWith(prompt)).toBe(true);
  expect(sample.length).toBe(prompt.length + 60);
}

test('tiny-gpt: a character-level GPT trains on the SOTU text below ln(vocab) and writes', async ({
  page,
}) => {
  const out = await runChapter(page, 'tiny-gpt');
  expect(out).toContain('training on cuda');
  await expectTinyGpt(page, out, /validation loss/);
});

test('tiny-gpt-py: the Python edition trains the same GPT below ln(vocab) and writes', async ({
  page,
}) => {
  const out = await runChapter(page, 'tiny-gpt-py');
  expect(out).toContain('training on cuda');
  await expectTinyGpt(page, out, /validation loss/);
});
