import { describe, expect, it } from 'vitest';
import { cpu } from '../../engine';
import { fromHost } from '../../engine/ops/creation';
import { Chart } from '../../kernel/outputs/chart';
import { imageGrid } from '../../kernel/outputs/image-grid';
import { ProgressBar } from '../../kernel/outputs/progress';
import { profileBundle } from '../../kernel/outputs/profile';
import type { CellOutput } from '../../kernel/protocol';
import { fromIpynb, toIpynb } from '../files/ipynb';
import { createCell, createNotebook } from '../model';

describe('rich outputs in .ipynb', () => {
  it('save as display_data with a text/plain fallback (and image/png) and load back unchanged', async () => {
    const chart = new Chart({ title: 'fit' });
    chart.log({ epoch: 1, train_loss: 0.9, val_acc: 0.5 });
    chart.log({ epoch: 2, train_loss: 0.6, val_acc: 0.75 });
    const bar = new ProgressBar({ total: 10, desc: 'train' });
    bar.update(10);
    bar.close();
    const images = fromHost(
      Float32Array.from({ length: 2 * 4 * 4 }, (_, i) => i % 7),
      [2, 1, 4, 4],
      { device: cpu() },
    );
    const bundles = [
      chart.toBundle(),
      bar.toBundle(),
      await imageGrid(images, { labels: [3, 8] }).toBundle(),
      profileBundle({
        device: 'gpu:0',
        adapter: 'x',
        wallMs: 2,
        gpuMs: 1,
        dispatches: 1,
        rows: [{ op: 'matmul', calls: 1, totalMs: 1, meanUs: 1000, percent: 100 }],
      }),
    ];
    const cell = createCell('code', 'fit()');
    cell.outputs = bundles.map((data, i): CellOutput => ({
      kind: 'display',
      data,
      displayId: `d${i}`,
    }));
    const notebook = createNotebook({ title: 'outputs', cells: [cell] });
    const file = JSON.parse(JSON.stringify(toIpynb(notebook))) as {
      cells: { outputs: { output_type: string; data: Record<string, unknown> }[] }[];
    };
    const saved = file.cells[0].outputs;
    expect(saved.map((o) => o.output_type)).toEqual(new Array(4).fill('display_data'));
    for (const o of saved) expect(o.data['text/plain']).toBeDefined();
    expect(typeof saved[2].data['image/png']).toBe('string');
    const back = fromIpynb(file).cells[0].outputs;
    expect(back.map((o) => (o.kind === 'display' ? o.data : null))).toEqual(bundles);
  });
});

describe('IPython display bundles in .ipynb', () => {
  it('keep every MIME type and their metadata, as Jupyter writes them, and read back the same', () => {
    const cell = createCell('code', 'HTML("<b>x</b>")');
    cell.outputs = [
      {
        kind: 'result',
        executionCount: 1,
        data: { 'text/html': '<b>x</b>\n<i>y</i>', 'text/plain': '<HTML object>' },
      },
      {
        kind: 'display',
        data: { 'image/png': 'iVBORw0KGgo=', 'text/plain': '<Image object>' },
        metadata: { 'image/png': { width: 20 } },
      },
      {
        kind: 'display',
        data: {
          'text/markdown': '# t',
          'application/json': { a: [1] },
          'image/jpeg': '/9j/',
          'text/plain': 'x',
        },
      },
    ];
    const notebook = createNotebook({ title: 'rich', cells: [cell] });
    const file = JSON.parse(JSON.stringify(toIpynb(notebook))) as {
      cells: { outputs: { data: Record<string, unknown>; metadata: unknown }[] }[];
    };
    const saved = file.cells[0].outputs;
    expect(saved[0].data['text/html']).toEqual(['<b>x</b>\n', '<i>y</i>']);
    expect(saved[1]).toMatchObject({
      data: { 'image/png': 'iVBORw0KGgo=' },
      metadata: { 'image/png': { width: 20 } },
    });
    expect(saved[2].data['application/json']).toEqual({ a: [1] });
    expect(fromIpynb(file).cells[0].outputs).toEqual(cell.outputs);
  });
});
