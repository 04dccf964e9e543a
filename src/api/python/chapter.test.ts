/**
 * The PyTorch GPU chapter's own Python cells (testing/chapter_gpu.py: verbatim but for sizes and
 * the numpy/pandas lines) run in order on WebGPU, printing what the chapter prints.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gpuDevices } from '../../engine';
import { setAssetReader } from '../../engine/data/datasets';
import { builtDataReader } from '../../engine/data/datasets/built-data.testing';
import { testDevices } from '../../engine/testing/devices';
import { createIoGlobals } from '../../kernel/globals';
import { OutputSink } from '../../kernel/output-sink';
import { startPython } from './testing/pyodide';

await testDevices();
const sink = new OutputSink({ outputs: () => undefined, updateDisplay: () => undefined });
const python = await startPython(createIoGlobals({ current: () => sink }, {}));
const cells = readFileSync(new URL('./testing/chapter_gpu.py', import.meta.url), 'utf8')
  .split(/^# %%$/m)
  .slice(1);

beforeAll(() => setAssetReader(builtDataReader()));
afterAll(() => setAssetReader(null));

/** What the chapter shows under the cells, for the one-GPU machine it was run on. */
const PRINTED: Record<number, string> = {
  0: 'if_cuda= True\ngpu_count= 1\n',
  1: 'cuda:0\nTrue\ncpu\n',
  2: 'False\nTrue\ncuda:0\n',
  3: 'cpu\n[0]\ncuda:0\n',
  10: `Sequential(
  (conv1): Conv2d(1, 32, kernel_size=(3, 3), stride=(1, 1))
  (pool1): MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
  (conv2): Conv2d(32, 64, kernel_size=(5, 5), stride=(1, 1))
  (pool2): MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
  (dropout): Dropout2d(p=0.1, inplace=False)
  (adaptive_pool): AdaptiveMaxPool2d(output_size=(1, 1))
  (flatten): Flatten(start_dim=1, end_dim=-1)
  (linear1): Linear(in_features=64, out_features=32, bias=True)
  (relu): ReLU()
  (linear2): Linear(in_features=32, out_features=10, bias=True)
)
`,
};

describe.skipIf(gpuDevices().length !== 1)('the PyTorch GPU chapter in Python', () => {
  it('runs every cell in order with the chapter printouts', async () => {
    expect(cells.length).toBe(13);
    const printed: string[] = [];
    for (const cell of cells) printed.push(await python.output(cell));
    for (const [i, text] of Object.entries(PRINTED)) expect(printed[Number(i)]).toBe(text);
    // Linear regression: the loss falls (printed every 50 epochs).
    const losses = [...printed[7].matchAll(/'loss': ([\d.e-]+)/g)].map((m) => Number(m[1]));
    expect(losses.length).toBe(2);
    expect(losses[1]).toBeLessThan(losses[0]);
    expect(printed[9]).toBe('128\n128\n');
    // The hand-written loop and KerasModel: one epoch each here, with the history filled in.
    const history = (await python.run('dfhistory')) as Record<string, number[]>;
    expect(history.epoch.length).toBeGreaterThanOrEqual(1);
    for (const acc of history.val_acc) expect(acc).toBeGreaterThan(0);
    expect(printed[11]).toContain('Epoch 1 / 1');
    expect(printed[12]).toContain('<<<<<< ⚡️ cuda is used >>>>>>');
    const fitted = (await python.run('model.net is net and len(list(net.parameters()))')) as number;
    expect(fitted).toBe(8);
  }, 240_000); // SwiftShader: the first convolutions also time kernel variants (autotune)
});
