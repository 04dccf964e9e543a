/**
 * Export for a cluster (issue 20): a small Python notebook with DataParallel runs, `export-ddp`
 * opens the dialog (what changes, what stays, what is needed, the lines not translated and
 * dropped), and its download is a zip with train.py, weights.safetensors, README.md and
 * requirements.txt (unzipped here with fflate; the weights' header read here).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { cell, expectCellDone, output, waitForKernelIdle } from './helpers';
import { payloadFor } from './persistence-helpers';

/** Pyodide's first load takes ~3 s on a quiet machine; a loaded CI machine gets more. */
const FIRST_PYTHON_CELL_MS = 90_000;

const CELL = `!pip install torch
import js
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
model = nn.DataParallel(net)
loader = DataLoader(TensorDataset(torch.rand(8, 3), torch.rand(8, 2)), batch_size=4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for x, y in loader:
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x.to("cuda:0")), y.to("cuda:0"))
        loss.backward()
        opt.step()
print("loss", loss.item())`;

test('a Python notebook exports to a DistributedDataParallel zip with its weights', async ({
  page,
}) => {
  // Opened from a share link (a Python kernelspec), not typed: the editor's auto-indent would
  // change the nested loops' indentation.
  const notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
      gpubook: { title: 'ddp e2e' },
    },
    cells: [{ cell_type: 'code', source: CELL, metadata: {}, outputs: [], execution_count: null }],
  };
  await page.goto(`/#nb=${payloadFor(notebook)}`);
  await expect(page.getByTestId('notebook')).toBeVisible();
  await waitForKernelIdle(page);
  await page.getByTestId('run-all').click();
  await page.getByTestId('trust-run').click();
  await expect(cell(page, 0)).toHaveAttribute('data-status', /^(done|error)$/, {
    timeout: FIRST_PYTHON_CELL_MS,
  });
  // On failure this shows the cell's traceback.
  await expect(output(page, 0)).toContainText(/loss \d/);
  await expectCellDone(page, 0);

  await page.getByTestId('export-ddp').click();
  const dialog = page.getByTestId('export-ddp-dialog');
  await expect(dialog).toBeVisible();
  const download = dialog.getByTestId('export-ddp-download');
  await expect(download).toBeEnabled({ timeout: 60_000 });
  await expect(dialog).toContainText('What changes');
  await expect(dialog).toContainText('What stays');
  await expect(dialog).toContainText('What you need');
  await expect(dialog).toContainText('torchrun --nproc_per_node=N train.py');
  await expect(dialog.getByTestId('export-ddp-model')).toContainText('`model.module` (Sequential)');
  await expect(dialog.getByTestId('export-ddp-untranslated')).toHaveText(
    /cell 1, line 2: import js — a browser-only module/,
  );
  await expect(dialog.getByTestId('export-ddp-dropped')).toHaveText(
    'cell 1, line 1: !pip install torch',
  );

  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toMatch(/ddp\.zip$/);
  const files = unzipSync(new Uint8Array(readFileSync(await file.path())));
  expect(Object.keys(files).sort()).toEqual([
    'README.md',
    'requirements.txt',
    'train.py',
    'weights.safetensors',
  ]);
  const script = strFromU8(files['train.py']);
  expect(script).toContain(
    'model = DistributedDataParallel(load_weights(net).to(DEVICE), device_ids=DEVICE_IDS)',
  );
  expect(script).toContain('sampler=DistributedSampler(');
  expect(script).toContain('loader.sampler.set_epoch(epoch)');
  expect(strFromU8(files['README.md'])).toContain('MASTER_ADDR=127.0.0.1');
  expect(strFromU8(files['requirements.txt'])).toMatch(/^torch$/m);
  // The weights: safetensors with the module's PyTorch names (net's, without "module.").
  const weights = files['weights.safetensors'];
  const size = Number(new DataView(weights.buffer, weights.byteOffset).getBigUint64(0, true));
  const header = JSON.parse(strFromU8(weights.slice(8, 8 + size))) as Record<string, unknown>;
  expect(Object.keys(header).filter((k) => k !== '__metadata__')).toEqual([
    '0.weight',
    '0.bias',
    '2.weight',
    '2.bias',
  ]);
  // The export's files went through the kernel's file store and are gone from it again.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});
