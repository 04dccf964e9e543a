/**
 * gpubook's notebook helpers in Python cells (gpubook/__init__.py): every cell sees `params`,
 * `display`, `timeit`, `compare_devices` and `plot_metric` without an import, and they produce
 * the same outputs as the TypeScript cells' globals of those names.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { createIoGlobals } from '../../kernel/globals';
import { OutputSink } from '../../kernel/output-sink';
import {
  CHART_MIME,
  IMAGE_MIME,
  TABLE_MIME,
  type CellOutput,
  type ImageGridData,
  type MimeBundle,
  type TableData,
} from '../../kernel/protocol';
import { startPython } from './testing/pyodide';

await testDevices();
const outputs: CellOutput[] = [];
const sink = new OutputSink({
  outputs: (o) => outputs.push(...o),
  updateDisplay: () => undefined,
});
const python = await startPython(createIoGlobals({ current: () => sink }, { size: 'test' }));

beforeEach(() => {
  outputs.length = 0;
});

async function shown(): Promise<{ bundles: MimeBundle[]; text: string }> {
  await sink.close();
  const bundles = outputs.flatMap((o) => (o.kind === 'display' ? [o.data] : []));
  const text = outputs.map((o) => (o.kind === 'stream' ? o.text : '')).join('');
  return { bundles, text };
}

describe('gpubook helpers in Python', () => {
  it('params holds the link settings, and the names need no import', async () => {
    expect(
      await python.run(`[params["size"], params.get("missing", "x"), display.__module__]`),
    ).toEqual(['test', 'x', 'gpubook']);
  });

  it('display shows a dict of lists as a table, a tensor with labels as an image grid, the rest as repr', async () => {
    await python.run(`
import torch
torch.manual_seed(3)
history = {"epoch": [1, 2], "loss": [0.75, 0.5]}
display(history)
images = torch.rand(4, 1, 5, 5)
display(images, labels=[3, 1, 4, 1], columns=2)
`);
    const { bundles } = await shown();
    const table = bundles.find((b) => TABLE_MIME in b)?.[TABLE_MIME] as TableData;
    expect(table.columns).toEqual(['epoch', 'loss']);
    expect(table.rows).toEqual([
      [1, 0.75],
      [2, 0.5],
    ]);
    const grid = bundles.find((b) => IMAGE_MIME in b)?.[IMAGE_MIME] as ImageGridData;
    expect(grid.images).toBe(4);
    expect(grid.columns).toBe(2);
    expect(grid.labels).toEqual(['3', '1', '4', '1']);
    const printed = await python.output(
      `display(object.__new__(type("Thing", (), {"__repr__": lambda self: "<a thing>"})))`,
    );
    expect(printed).toBe('<a thing>\n');
  });

  it('timeit times a function that reads the GPU back; compare_devices times it on every device', async () => {
    const r = (await python.run(`
calls = []
def work(device=None):
    a = torch.rand(32, 32, device=device)
    calls.append(str(a.device))
    return (a @ a).sum().item()

median = timeit(work, repeat=2, warmup=1)
rows = compare_devices(work, repeat=1, warmup=0)
[median, len(calls), sorted(set(calls)), [sorted(r.keys())[0] for r in rows], len(rows)]
`)) as [number, number, string[], string[], number];
    const [median, calls, devices, , rowCount] = r;
    expect(median).toBeGreaterThan(0);
    // timeit: one warm-up and two timed calls; compare_devices: one call per device.
    expect(calls).toBe(3 + rowCount);
    expect(devices).toContain('cpu');
    expect(rowCount).toBe((await testDevices()).length);
    const { bundles, text } = await shown();
    expect(text).toMatch(/median/i);
    expect(bundles.some((b) => CHART_MIME in b)).toBe(true);
  });

  it('plot_metric draws the training and validation curves of a history', async () => {
    await python.run(
      `plot_metric({"epoch": [1, 2, 3], "loss": [0.9, 0.6, 0.4], "val_loss": [1.0, 0.7, 0.6]}, "loss")`,
    );
    const { bundles } = await shown();
    const chart = bundles.find((b) => CHART_MIME in b);
    expect(chart).toBeDefined();
  });
});
