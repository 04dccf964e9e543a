import { describe, expect, it } from 'vitest';
import { registerTextFormatter } from '../display';
import { OutputSink } from '../output-sink';
import { startTestSession } from '../testing/session-harness';
import {
  CHART_MIME,
  PROGRESS_MIME,
  type CellOutput,
  type ChartData,
  type MimeBundle,
} from '../protocol';

class SlowText {
  constructor(readonly text: string) {}
}
registerTextFormatter((v) =>
  v instanceof SlowText ? new Promise<string>((r) => setTimeout(() => r(v.text), 30)) : null,
);

function session() {
  const kernel = startTestSession(
    async () => ({
      info: { backend: 'cpu', adapter: null, cooperativeInterrupt: false },
      globals: { SlowText },
    }),
    {},
  );
  const run = async (code: string) => {
    const { cellId, done } = kernel.run(code);
    const status = await done;
    const outputs = kernel.outputsOf(cellId);
    const updates = kernel.events.flatMap((e) =>
      e.type === 'update-display' && e.cellId === cellId ? [e] : [],
    );
    // The page's view: each display output with its newest data.
    const view = outputs.map((o) => {
      if (o.kind !== 'display' || !o.displayId) return o;
      const last = updates.filter((u) => u.displayId === o.displayId).pop();
      return last ? { ...o, data: last.data } : o;
    });
    return { outputs, updates, view, status };
  };
  return { run };
}

const text = (o: CellOutput) =>
  o.kind === 'stream' ? o.text : o.kind === 'error' ? o.evalue : o.data['text/plain'];

describe('display handles', () => {
  it('update replaces the output in place, ending with the last value, and is not shown again as the result', async () => {
    const k = session();
    const r = await k.run(
      'const h = display("first");\nfor (let i = 1; i <= 500; i++) h.update(`value ${i}`);\nh',
    );
    expect(r.outputs).toHaveLength(1);
    expect(r.view.map(text)).toEqual(['"value 500"']);
    expect(r.updates.length).toBeLessThan(10);
    expect(typeof (r.outputs[0] as { displayId?: string }).displayId).toBe('string');
  });

  it('an update that comes while its output still waits for an earlier output lands on it', async () => {
    const k = session();
    const r = await k.run(
      'print(new SlowText("slow"));\nconst h = display("before");\nh.update("after");',
    );
    expect(r.view.map(text)).toEqual(['slow\n', '"after"']);
  });

  it('a chart logged in a loop shows itself once and ends with every point', async () => {
    const k = session();
    const r = await k.run(
      'const chart = new Chart({ title: "t" });\nfor (let i = 1; i <= 300; i++) chart.log({ loss: 1 / i, acc: i / 300 });',
    );
    const displays = r.view.filter((o) => o.kind === 'display');
    expect(displays).toHaveLength(1);
    const data = (displays[0] as { data: MimeBundle }).data[CHART_MIME] as ChartData;
    expect(data.panels.map((p) => p.series[0].points.length)).toEqual([300, 300]);
    expect(data.panels[0].series[0].points[299]).toEqual([300, 1 / 300]);
  });

  it('tqdm and progress bars reach their end', async () => {
    const k = session();
    const r = await k.run(
      'let s = 0;\nfor (const x of tqdm([1, 2, 3, 4, 5], { desc: "sum" })) s += x;\nconst bar = progress(4);\nfor (let i = 0; i < 4; i++) bar.update(1);\nbar.close();\nprint(s)',
    );
    const bars = r.view
      .filter((o) => o.kind === 'display')
      .map((o) => (o as { data: MimeBundle }).data[PROGRESS_MIME]);
    expect(bars).toMatchObject([
      { value: 5, max: 5, desc: 'sum', done: true },
      { value: 4, max: 4, done: true },
    ]);
    expect(r.view.map(text).join('')).toContain('15\n');
  });

  it('plotMetric draws the history it is given', async () => {
    const k = session();
    const r = await k.run(
      'plotMetric([{ epoch: 1, train_loss: 0.9, val_loss: 1 }, { epoch: 2, train_loss: 0.5, val_loss: 0.7 }], "loss")',
    );
    expect(r.outputs).toHaveLength(1);
    const data = (r.outputs[0] as { data: MimeBundle }).data[CHART_MIME] as ChartData;
    expect(data.panels[0].series.map((s) => s.points)).toEqual([
      [
        [1, 0.9],
        [2, 0.5],
      ],
      [
        [1, 1],
        [2, 0.7],
      ],
    ]);
  });

  it('timeit prints and returns the median seconds', async () => {
    const k = session();
    const r = await k.run(
      'const t = await timeit(() => { let x = 0; for (let i = 0; i < 1000; i++) x += i; }, { repeat: 3 });\nprint(typeof t, t >= 0)',
    );
    expect(r.view.map(text).join('')).toMatch(
      /per run \(median ± half the IQR of 3 runs, 1 warm-up;[^\n]*\nnumber true\n/,
    );
  });
});

describe('OutputSink updates', () => {
  it('folds an update into its output while that output is not posted yet, and posts later ones', async () => {
    const posted: string[] = [];
    const sink = new OutputSink(
      {
        outputs: (o) => posted.push(...o.map((x) => `out:${text(x)}`)),
        updateDisplay: (id, data) => posted.push(`update:${id}:${data['text/plain']}`),
      },
      { maxOutputs: 10, maxTextChars: 1000, flushIntervalMs: 1000 },
    );
    sink.add({ kind: 'display', data: { 'text/plain': 'a' }, displayId: 'd1' }, 'd1');
    sink.add({ kind: 'stream', name: 'stdout', text: 'x' });
    sink.updateDisplay('d1', { 'text/plain': 'b' });
    expect(posted).toEqual([]);
    await sink.close();
    expect(posted).toEqual(['out:b', 'out:x']);
    sink.updateDisplay('d1', { 'text/plain': 'c' });
    expect(posted).toEqual(['out:b', 'out:x', 'update:d1:c']);
  });
});
