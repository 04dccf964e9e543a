/**
 * Every kind of output the app makes, saved as the app saves it, passes Jupyter's own validator
 * (`nbformat.validate`, Debian's python3-nbformat; the tests say why and skip without it). The
 * notebook is built as the page builds it: cells run in a real kernel session, and its events go
 * into the model through the same functions the store uses (appendOutputs, updateDisplay), then
 * through the `.ipynb` writer.
 */
import { describe, expect, it } from 'vitest';
import { startTestSession } from '../../kernel/testing/session-harness';
import { CHART_MIME, type CellOutput } from '../../kernel/protocol';
import {
  appendOutputs,
  createCell,
  createNotebook,
  finishExecution,
  startExecution,
  updateDisplay,
  type Notebook,
} from '../model';
import { fromIpynb, toIpynb } from './ipynb';
import { nbformatErrors, nbformatMissing } from './testing/nbformat';

const missing = nbformatMissing();

const CELLS = [
  // stdout and stderr streams, text that needs escaping in JSON and in markup
  'print("hello <b>&</b>");\nprint("second line");\nconsole.error("careful: \\"quoted\\"");',
  // execute_result
  '40 + 2',
  // display_data, then a live display updated several times (throttled: a few updates)
  'display("shown once");\nconst h = display("first");\nfor (let i = 1; i <= 5; i++) {\n  h.update(`value ${i}`);\n  await new Promise((r) => setTimeout(r, 120));\n}',
  // a live chart logged into across awaits, and a progress bar
  'const chart = new Chart({ title: "Training <fit> & more" });\nfor (let epoch = 1; epoch <= 3; epoch++) {\n  chart.log({ epoch, train_loss: 1 / epoch, val_loss: 1.2 / epoch, val_acc: 0.5 + epoch / 10 });\n  await new Promise((r) => setTimeout(r, 120));\n}\nfor (const _ of tqdm([1, 2, 3], { desc: "steps" })) await new Promise((r) => setTimeout(r, 50));',
  // a bar chart and a table
  'const bars = new Chart({ kind: "bar" });\nbars.setSeries("time", [[0, 1.5], [1, 0.25]], { categories: ["cpu", "gpu"], yLabel: "s" });\ndisplay(bars);\ndisplay([{ a: 1, b: "x" }, { a: 2, b: "y" }]);',
  // an error
  'throw new TypeError("bad <value> & \\"quotes\\"");',
];

/** Runs the cells in a kernel session and records what the page's store would hold. */
async function runNotebook(language: 'typescript' | 'python' = 'typescript'): Promise<Notebook> {
  const kernel = startTestSession(
    async () => ({
      info: { backend: 'cpu', adapter: null, cooperativeInterrupt: false },
      globals: {},
    }),
    {},
  );
  const cells = CELLS.map((source, i) => ({ ...createCell('code', source), id: `c${i + 1}` }));
  let notebook = createNotebook({
    title: 'Every output',
    cells: [createCell('markdown', '# Outputs'), ...cells],
    language,
  });
  let seen = 0;
  for (const [i, cell] of cells.entries()) {
    const { cellId, done } = kernel.run(cell.source);
    expect(cellId).toBe(cell.id);
    notebook = startExecution(notebook, cellId, i + 1);
    const finished = await done;
    for (const event of kernel.events.slice(seen)) {
      if (event.type === 'output') notebook = appendOutputs(notebook, event.cellId, event.outputs);
      if (event.type === 'update-display') {
        notebook = updateDisplay(notebook, event.cellId, event.displayId, event.data);
      }
    }
    seen = kernel.events.length;
    notebook = finishExecution(notebook, cellId, finished.status === 'ok' ? 'done' : 'error');
  }
  const updates = kernel.events.filter((e) => e.type === 'update-display').length;
  expect(updates).toBeGreaterThan(2);
  return notebook;
}

const kinds = (outputs: CellOutput[]) => outputs.map((o) => o.kind);

describe.skipIf(missing !== null)(
  `saved outputs against nbformat's schema${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    it('every output kind the app makes, live displays and charts included, validates as saved', async () => {
      const notebook = await runNotebook();
      const outputs = notebook.cells.flatMap((c) => c.outputs);
      expect(new Set(kinds(outputs))).toEqual(new Set(['stream', 'result', 'display', 'error']));
      const text = `${JSON.stringify(toIpynb(notebook), null, 1)}\n`;
      expect(nbformatErrors(text)).toBeNull();

      const file = JSON.parse(text) as {
        cells: { outputs?: Array<Record<string, unknown>> }[];
      };
      const saved = file.cells.flatMap((c) => c.outputs ?? []);
      expect(text).not.toContain('"transient"');
      // Live displays keep their id where nbformat allows it: the output's metadata.
      const ids = saved
        .filter((o) => o.output_type === 'display_data')
        .map((o) => (o.metadata as { gpubook?: { display_id?: string } }).gpubook?.display_id);
      expect(ids.every((id) => typeof id === 'string')).toBe(true);
      // The live display holds its last value; charts carry an SVG picture beside their JSON.
      expect(JSON.stringify(saved)).toContain('value 5');
      const charts = saved.filter(
        (o) => (o.data as Record<string, unknown> | undefined)?.[CHART_MIME],
      );
      expect(charts).toHaveLength(2);
      for (const chart of charts) {
        const svg = (chart.data as Record<string, unknown>)['image/svg+xml'] as string[];
        expect(Array.isArray(svg) && svg.every((line) => typeof line === 'string')).toBe(true);
        expect(svg[0]).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      }

      // Read back: the same outputs (display ids kept), charts as gpubook charts without the picture.
      const back = fromIpynb(JSON.parse(text));
      expect(back.cells.map((c) => c.outputs)).toEqual(notebook.cells.map((c) => c.outputs));
    });

    it('validates as a Python notebook too, and a share link leaves the chart pictures out', async () => {
      const notebook = await runNotebook('python');
      const text = JSON.stringify(toIpynb(notebook));
      expect(nbformatErrors(text)).toBeNull();
      const linked = JSON.stringify(toIpynb(notebook, { chartPictures: false }));
      expect(nbformatErrors(linked)).toBeNull();
      expect(linked).not.toContain('image/svg+xml');
    });

    it("IPython's rich outputs (Python cells: HTML, Markdown, LaTeX, JSON, images with size metadata, SVG) validate as saved and read back", () => {
      const cell = { ...createCell('code', 'display(HTML("<b>x</b>"))'), executionCount: 1 };
      cell.outputs = [
        {
          kind: 'display',
          displayId: 'd1',
          data: {
            'text/plain': '<IPython.core.display.HTML object>',
            'text/html': '<b>x</b>\n<i>y</i>',
          },
        },
        { kind: 'display', data: { 'text/plain': 'md', 'text/markdown': '# T\n\ntext' } },
        { kind: 'display', data: { 'text/plain': 'tex', 'text/latex': '$x^2$' } },
        {
          kind: 'result',
          executionCount: 1,
          data: { 'text/plain': '{}', 'application/json': { a: [1, null] } },
        },
        {
          kind: 'display',
          data: { 'text/plain': 'img', 'image/png': 'iVBORw0KGgo=', 'image/jpeg': '/9j/4AAQ' },
          metadata: { 'image/png': { width: 100, height: 50 } },
        },
        {
          kind: 'display',
          data: {
            'text/plain': 'svg',
            'image/svg+xml': '<svg xmlns="http://www.w3.org/2000/svg">\n</svg>',
          },
        },
      ];
      const notebook = createNotebook({ title: 'rich', cells: [cell], language: 'python' });
      const text = JSON.stringify(toIpynb(notebook));
      expect(nbformatErrors(text)).toBeNull();
      // A picture that is not a chart's is the output's own: it stays.
      expect(fromIpynb(JSON.parse(text)).cells[0].outputs).toEqual(cell.outputs);
    });

    it('reports what is wrong, as gpubook once wrote it (transient, a float count)', () => {
      const old = {
        nbformat: 4,
        nbformat_minor: 5,
        metadata: {},
        cells: [
          {
            id: 'a',
            cell_type: 'code',
            metadata: {},
            source: [],
            execution_count: 1.5,
            outputs: [
              {
                output_type: 'display_data',
                data: { 'text/plain': ['x'] },
                metadata: {},
                transient: { display_id: 'd1' },
              },
            ],
          },
        ],
      };
      const errors = nbformatErrors(JSON.stringify(old));
      expect(errors).toMatch(/transient/);
      // Such a file still opens, keeping the display id, and saves valid.
      const opened = fromIpynb(old);
      expect(opened.cells[0].outputs[0]).toMatchObject({ kind: 'display', displayId: 'd1' });
      expect(opened.cells[0].executionCount).toBeNull();
      expect(nbformatErrors(JSON.stringify(toIpynb(opened)))).toBeNull();
    });
  },
);
