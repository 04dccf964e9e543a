/**
 * The Files panel round trip: torch.save a Linear's state dict, download it, read the bytes with
 * an independent safetensors reader written here, delete it, upload the download back, and
 * torch.load it into a fresh Linear that then gives the same outputs.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import {
  addCodeCell,
  expectCellDone,
  openNewNotebook,
  output,
  runCell,
  setCellSource,
} from './helpers';

interface Entry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

/** safetensors: u64 little-endian header length, a JSON header, then the raw tensor bytes. */
function readSafetensors(bytes: Buffer): Map<string, { shape: number[]; values: number[] }> {
  const headerLength = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + headerLength).toString('utf8')) as Record<
    string,
    Entry | Record<string, string>
  >;
  const data = bytes.subarray(8 + headerLength);
  const out = new Map<string, { shape: number[]; values: number[] }>();
  for (const [name, raw] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const entry = raw as Entry;
    expect(entry.dtype).toBe('F32');
    const [start, end] = entry.data_offsets;
    const values: number[] = [];
    for (let at = start; at < end; at += 4) values.push(data.readFloatLE(at));
    expect(values.length).toBe(entry.shape.reduce((a, b) => a * b, 1));
    out.set(name, { shape: entry.shape, values });
  }
  return out;
}

test('download a saved state dict as safetensors, upload it back, load it', async ({ page }) => {
  await openNewNotebook(page);
  await setCellSource(
    page,
    0,
    [
      'torch.manualSeed(7);',
      'const lin = new nn.Linear(3, 2);',
      'await torch.save(lin.stateDict(), "lin.safetensors");',
      'torch.manualSeed(11);',
      'const x = torch.randn([4, 3]);',
      'print("weight", JSON.stringify(await lin.weight.tolist()));',
      'print("bias", JSON.stringify(await lin.bias.tolist()));',
      'print("out", JSON.stringify(await lin(x).tolist()));',
    ].join('\n'),
  );
  await runCell(page, 0);
  await expectCellDone(page, 0);
  const printed = await output(page, 0).innerText();
  const weight = JSON.parse(/weight (\[.*\])/.exec(printed)?.[1] ?? 'null') as number[][];
  const bias = JSON.parse(/bias (\[.*\])/.exec(printed)?.[1] ?? 'null') as number[];
  const before = /out (\[.*\])/.exec(printed)?.[1];
  expect(weight).toHaveLength(2);
  expect(before).toBeTruthy();

  await page.getByTestId('open-files-panel').click();
  const panel = page.getByTestId('files-panel');
  await expect(panel).toBeVisible();
  const item = panel.getByTestId('file-item').filter({ hasText: 'lin.safetensors' });
  await expect(item).toHaveCount(1);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    item.getByTestId('download-file').click(),
  ]);
  expect(download.suggestedFilename()).toBe('lin.safetensors');
  const path = await download.path();
  const bytes = await readFile(path);
  const tensors = readSafetensors(bytes);
  expect([...tensors.keys()].sort()).toEqual(['bias', 'weight']);
  expect(tensors.get('weight')?.shape).toEqual([2, 3]);
  expect(tensors.get('bias')?.shape).toEqual([2]);
  // The printed numbers are float32 values as doubles, so they round-trip exactly.
  expect(tensors.get('weight')?.values).toEqual(weight.flat());
  expect(tensors.get('bias')?.values).toEqual(bias);
  expect(weight.flat().some((v) => v !== 0)).toBe(true);

  await item.getByTestId('delete-file').click();
  await expect(panel.getByTestId('file-item')).toHaveCount(0);

  await panel.getByTestId('upload-file').setInputFiles({
    name: download.suggestedFilename(),
    mimeType: 'application/octet-stream',
    buffer: bytes,
  });
  await expect(item).toHaveCount(1);
  await page.getByTestId('close-files-panel').click();

  const i = await addCodeCell(
    page,
    [
      'torch.manualSeed(99);',
      'const other = new nn.Linear(3, 2);',
      'print(other.loadStateDict(await torch.load("lin.safetensors")));',
      'torch.manualSeed(11);',
      'const x2 = torch.randn([4, 3]);',
      'print("again", JSON.stringify(await other(x2).tolist()));',
    ].join('\n'),
  );
  await runCell(page, i);
  await expectCellDone(page, i);
  const text = await output(page, i).innerText();
  expect(text).toContain('<All keys matched successfully>');
  expect(/again (\[.*\])/.exec(text)?.[1]).toBe(before);
});
