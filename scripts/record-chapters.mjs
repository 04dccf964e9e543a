/**
 * Records the bundled chapters' saved outputs from a real run: serves the built app, opens each
 * chapter by its link, runs all cells in headless Chromium on whatever WebGPU adapter it has, downloads
 * the notebook as .ipynb and writes its outputs into public/notebooks/<id>.ipynb (matched by the
 * cells' source hashes, so build-chapters.mjs keeps them while the code is unchanged).
 *
 *   npm run build && node scripts/record-chapters.mjs [--size=test|class|full] [id …]
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';

const switches = JSON.parse(readFileSync('scripts/chromium-switches.json', 'utf8'));

const args = process.argv.slice(2);
const size = args.find((a) => a.startsWith('--size='))?.slice(7) ?? 'test';
const index = JSON.parse(readFileSync('public/notebooks/index.json', 'utf8'));
const ids = args.filter((a) => !a.startsWith('--'));
const chapters = ids.length ? ids : index.chapters.map((c) => c.id);
const port = 4455;

const server = spawn(
  'npx',
  ['vite', 'preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'],
  {
    stdio: 'ignore',
  },
);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [...switches.quiet, ...switches.webgpu],
});
try {
  for (const id of chapters) {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    for (let i = 0; ; i++) {
      try {
        await page.goto(`http://127.0.0.1:${port}/?open=${id}&size=${size}`);
        break;
      } catch (error) {
        if (i > 50) throw error;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    await page.getByTestId('notebook').waitFor();
    await page.waitForSelector('[data-testid="kernel-status"][data-state="idle"]', {
      timeout: 120_000,
    });
    await page.getByTestId('run-all').click();
    const status = await page.waitForFunction(
      () => {
        const cells = [...document.querySelectorAll('[data-testid="cell"][data-cell-type="code"]')];
        const statuses = cells.map((c) => c.getAttribute('data-status'));
        if (statuses.includes('error')) return 'error';
        return statuses.every((s) => s === 'done') ? 'done' : null;
      },
      undefined,
      { timeout: 30 * 60_000, polling: 2000 },
    );
    if ((await status.jsonValue()) !== 'done') throw new Error(`${id}: a cell ended in error`);
    await page.waitForTimeout(1500); // let the last outputs reach the notebook
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-ipynb').click(),
    ]);
    const ran = JSON.parse(readFileSync(await download.path(), 'utf8'));
    const target = `public/notebooks/${id}.ipynb`;
    const bundled = JSON.parse(readFileSync(target, 'utf8'));
    const byHash = new Map(ran.cells.map((c) => [c.metadata?.gpubook?.sourceHash, c]));
    let recorded = 0;
    for (const cell of bundled.cells) {
      const run = byHash.get(cell.metadata?.gpubook?.sourceHash);
      if (cell.cell_type !== 'code' || !run) continue;
      cell.outputs = run.outputs;
      cell.execution_count = run.execution_count;
      recorded++;
    }
    bundled.metadata.gpubook.recorded = { size, at: new Date().toISOString().slice(0, 10) };
    writeFileSync(target, `${JSON.stringify(bundled, null, 1)}\n`);
    console.log(`${id}: recorded outputs of ${recorded} cells at size ${size}`);
    await context.close();
  }
} finally {
  await browser.close();
  server.kill();
}
