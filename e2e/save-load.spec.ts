/**
 * torch.save keeps weights in the browser's storage: saved, then the page reloaded (a fresh
 * kernel), then loaded into a new model, they give the very same outputs.
 */
import { expect, test } from '@playwright/test';
import {
  addCodeCell,
  expectCellDone,
  openNewNotebook,
  output,
  runCell,
  setCellSource,
  waitForKernelIdle,
} from './helpers';

test('save, reload the page, load: identical outputs', async ({ page }) => {
  await openNewNotebook(page);
  await setCellSource(
    page,
    0,
    [
      'torch.manualSeed(3);',
      'const net = new nn.Sequential(new nn.Linear(4, 8), new nn.ReLU(), new nn.Linear(8, 2));',
      'const x = torch.rand([3, 4]);',
      'await torch.save(net.stateDict(), "weights.pt");',
      'print("before", JSON.stringify(await net(x).tolist()));',
    ].join('\n'),
  );
  await runCell(page, 0);
  await expectCellDone(page, 0);
  const before = /before (\[.*\])/.exec(await output(page, 0).innerText())?.[1];
  expect(before).toBeTruthy();

  await page.reload();
  await waitForKernelIdle(page);
  const i = await addCodeCell(
    page,
    [
      'torch.manualSeed(3);',
      'const fresh = new nn.Sequential(new nn.Linear(4, 8), new nn.ReLU(), new nn.Linear(8, 2));',
      'const x2 = torch.rand([3, 4]);',
      'torch.manualSeed(99);',
      'const other = new nn.Sequential(new nn.Linear(4, 8), new nn.ReLU(), new nn.Linear(8, 2));',
      'print(other.loadStateDict(await torch.load("weights.pt")));',
      'print("after", JSON.stringify(await other(x2).tolist()));',
    ].join('\n'),
  );
  await runCell(page, i);
  await expectCellDone(page, i);
  const text = await output(page, i).innerText();
  expect(text).toContain('<All keys matched successfully>');
  expect(/after (\[.*\])/.exec(text)?.[1]).toBe(before);
});
