import { describe, expect, it } from 'vitest';
import { checkCells } from '../../notebook/editor/testing/checkCells';
import { OUTPUT_GLOBALS_DTS } from './cell-globals-dts';

const lib = [
  'declare const print: (...values: unknown[]) => void;',
  'declare const torch: any;',
  ...OUTPUT_GLOBALS_DTS.map((g) => g.declaration),
].join('\n');

describe('editor declarations of the output globals', () => {
  it('type the cells the outputs issue describes without errors', () => {
    const cells = [
      `const chart = display(new Chart({ title: 'loss' }));\nchart.log({ epoch: 1, loss: 0.5 });\nconst h = display('text');\nh.update('more');`,
      `for await (const batch of tqdm(torch.loader)) print(batch);\nconst bar = progress(10);\nbar.update(2).setPostfix({ loss: 0.3 });\nbar.close();`,
      `const logger = metricsLogger();\nlogger.log({ loss: 1 });\nplotMetric([{ epoch: 1, train_loss: 1 }], 'loss');\ndisplay(torch.images, { labels: [1, 2], columns: 2 });`,
      `const s: number = await timeit(() => torch.rand([2]), { repeat: 3, warmup: 1 });\nconst rows = await compareDevices((d) => torch.rand([2], { device: d }));\nprint(rows[0].speedup, s);\nconst p = await profile(() => torch.rand([2]));\nprint(p[0]?.rows[0].op);\nconst kb = new Progbar(10);\nkb.update(3, { loss: 1 });`,
      `const report = await benchmarkDevice({ sizes: 'small' });\nprint(report.peakGflops, report.rows[0].case);`,
      `autoChart(false);\nautoChart({ enabled: true, names: { train_loss: 'loss' } });\nconst bar = progress(4);\nbar.setPostfixStr('loss=0.5, acc=0.9');`,
      `const text: string = await loadText('sotu');\nprint(text.length);`,
    ];
    expect(checkCells([lib], cells)).toEqual([]);
  });

  it('still catches a wrong use', () => {
    const problems = checkCells([lib], [`const chart = new Chart();\nchart.log(5);`]);
    expect(problems.length).toBeGreaterThan(0);
  });
});
