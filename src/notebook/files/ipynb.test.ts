import { describe, expect, it } from 'vitest';
import { createCell, createNotebook, type Notebook } from '../model';
import { fromIpynb, NotebookFileError, parseIpynbText, toIpynb, toTypeScript } from './ipynb';

function sampleNotebook(): Notebook {
  const code = createCell('code', 'const x = 1;\nprint(x)\n');
  code.executionCount = 3;
  code.outputs = [
    { kind: 'stream', name: 'stdout', text: 'line one\nline two\n' },
    { kind: 'stream', name: 'stderr', text: 'warned' },
    { kind: 'result', executionCount: 3, data: { 'text/plain': '42' } },
    {
      kind: 'display',
      displayId: 'chart-1',
      data: {
        'text/plain': 'chart',
        'application/vnd.gpubook.table+json': { columns: ['a'], rows: [[1]] },
      },
    },
    { kind: 'error', ename: 'TypeError', evalue: 'bad', traceback: ['  at (cell-3.ts, line 2)'] },
  ];
  code.metadata = { tags: ['keep'] };
  const md = createCell('markdown', '# Title\n\ntext');
  return createNotebook({ title: 'Round trip', cells: [md, code] });
}

const strip = (nb: Notebook) => ({ ...nb, id: '', updatedAt: 0 });

describe('.ipynb', () => {
  it('round-trips every cell and output', () => {
    const nb = sampleNotebook();
    const back = fromIpynb(JSON.parse(JSON.stringify(toIpynb(nb))));
    expect(strip(back)).toEqual(strip(nb));
  });

  it('writes nbformat 4 with the gpubook kernelspec and Jupyter-style line lists', () => {
    const file = toIpynb(sampleNotebook());
    expect(file.nbformat).toBe(4);
    expect(file.metadata.kernelspec).toEqual({
      name: 'gpubook',
      display_name: 'TypeScript (WebGPU)',
      language: 'typescript',
    });
    expect(file.cells[1].source).toEqual(['const x = 1;\n', 'print(x)\n']);
    const outputs = file.cells[1].outputs as Array<Record<string, unknown>>;
    expect(outputs.map((o) => o.output_type)).toEqual([
      'stream',
      'stream',
      'execute_result',
      'display_data',
      'error',
    ]);
  });

  it('reads a notebook written by Jupyter, keeping its HTML beside the text (shown sanitised)', () => {
    const jupyter = {
      nbformat: 4,
      nbformat_minor: 4,
      metadata: { kernelspec: { name: 'python3' } },
      cells: [
        { cell_type: 'raw', metadata: {}, source: 'raw text' },
        {
          cell_type: 'code',
          execution_count: 1,
          metadata: {},
          source: ['x = 1\n', 'x'],
          outputs: [
            {
              output_type: 'execute_result',
              execution_count: 1,
              metadata: {},
              data: { 'text/html': ['<b onclick="x()">1</b>'], 'text/plain': ['1'] },
            },
          ],
        },
      ],
    };
    const nb = fromIpynb(jupyter, 'from-jupyter');
    expect(nb.title).toBe('from-jupyter');
    expect(nb.cells.map((c) => c.type)).toEqual(['markdown', 'code']);
    expect(nb.cells[1].source).toBe('x = 1\nx');
    const result = nb.cells[1].outputs[0];
    expect(result.kind === 'result' && result.data).toEqual({
      'text/html': '<b onclick="x()">1</b>',
      'text/plain': '1',
    });
    // A Python kernel opens as a Python notebook (issue 15), keeping Jupyter's kernelspec.
    expect(nb.metadata.kernelspec.name).toBe('python3');
    expect(nb.metadata.kernelspec.language).toBe('python');
  });

  const malformed: Array<[string, unknown, RegExp]> = [
    ['an array', [], /not a notebook/],
    ['nbformat 3', { nbformat: 3, cells: [] }, /nbformat 4/],
    ['no cells', { nbformat: 4 }, /no "cells"/],
    [
      'a bad cell type',
      { nbformat: 4, cells: [{ cell_type: 'python', source: '' }] },
      /Cell 1 has an unknown cell_type/,
    ],
    [
      'a numeric source',
      { nbformat: 4, cells: [{ cell_type: 'code', source: 5 }] },
      /Cell 1: "source" must be a string/,
    ],
    [
      'a bad output',
      { nbformat: 4, cells: [{ cell_type: 'code', source: '', outputs: [{ output_type: 'x' }] }] },
      /Cell 1, output 1 has an unknown output_type/,
    ],
  ];
  for (const [name, value, message] of malformed) {
    it(`refuses ${name} with a message naming the problem`, () => {
      expect(() => fromIpynb(value)).toThrow(NotebookFileError);
      expect(() => fromIpynb(value)).toThrow(message);
    });
  }

  it('refuses text that is not JSON', () => {
    expect(() => parseIpynbText('{"nbformat": 4,')).toThrow(/not valid JSON/);
  });

  it('downloads as TypeScript with markdown as comments', () => {
    const ts = toTypeScript(sampleNotebook());
    expect(ts).toContain('// %% [markdown] cell 1\n// # Title\n//\n// text');
    expect(ts).toContain('// %% [code] cell 2\nconst x = 1;\nprint(x)\n');
  });
});
