import { describe, expect, it } from 'vitest';
import { mulberry32 as rng } from '../engine/data/datasets/seeded-shuffle';
import type { CellOutput } from '../kernel/protocol';
import {
  appendOutputs,
  clearAllOutputs,
  clearOutputs,
  createCell,
  createNotebook,
  deleteCell,
  finishExecution,
  insertCell,
  moveCell,
  queueCell,
  resetRuntimeState,
  setCellSource,
  setCellType,
  startExecution,
  updateDisplay,
  type Cell,
  type Notebook,
} from './model';

function notebookOf(count: number): Notebook {
  const cells: Cell[] = [];
  for (let i = 0; i < count; i++)
    cells.push(createCell(i % 3 === 2 ? 'markdown' : 'code', `c${i}`));
  return createNotebook({ cells, now: 1 });
}

const ids = (nb: Notebook) => nb.cells.map((c) => c.id);

describe('createNotebook', () => {
  it('starts with one empty code cell and the gpubook kernelspec', () => {
    const nb = createNotebook({ now: 42 });
    expect(nb.cells).toHaveLength(1);
    expect(nb.cells[0]).toMatchObject({ type: 'code', source: '', outputs: [], status: 'idle' });
    expect(nb.cells[0].executionCount).toBeNull();
    expect(nb.metadata.kernelspec).toEqual({
      name: 'gpubook',
      display_name: 'TypeScript (WebGPU)',
      language: 'typescript',
    });
    expect(nb.updatedAt).toBe(42);
  });

  it('gives every cell a distinct nbformat-valid id', () => {
    const nb = notebookOf(200);
    expect(new Set(ids(nb)).size).toBe(200);
    for (const id of ids(nb)) expect(id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });
});

describe('insertCell / deleteCell / moveCell', () => {
  it('inserts at the index asked for, clamped to the ends', () => {
    const random = rng(7);
    let nb = notebookOf(3);
    const expected = ids(nb);
    for (let trial = 0; trial < 50; trial++) {
      const index = Math.floor(random() * (expected.length + 5)) - 2;
      const cell = createCell('code');
      nb = insertCell(nb, index, cell);
      expected.splice(Math.min(Math.max(index, 0), expected.length), 0, cell.id);
      expect(ids(nb)).toEqual(expected);
    }
  });

  it('deletes exactly the cell named and leaves others untouched', () => {
    const nb = notebookOf(6);
    const victim = nb.cells[3].id;
    const after = deleteCell(nb, victim);
    expect(ids(after)).toEqual(ids(nb).filter((id) => id !== victim));
    expect(after.cells[3]).toBe(nb.cells[4]);
    expect(deleteCell(nb, 'missing')).toBe(nb);
    expect(ids(nb)).toHaveLength(6); // the input is not mutated
  });

  it('moves a cell to any position like remove-then-insert', () => {
    const random = rng(11);
    let nb = notebookOf(8);
    for (let trial = 0; trial < 200; trial++) {
      const from = Math.floor(random() * 8);
      const to = Math.floor(random() * 12) - 2;
      const id = nb.cells[from].id;
      const expected = ids(nb).filter((x) => x !== id);
      expected.splice(Math.min(Math.max(to, 0), 7), 0, id);
      const moved = moveCell(nb, id, to);
      expect(ids(moved)).toEqual(expected);
      if (Math.min(Math.max(to, 0), 7) === from) expect(moved).toBe(nb);
      nb = moved;
    }
  });
});

describe('setCellType / setCellSource', () => {
  it('keeps the source, drops outputs and count when the type changes', () => {
    let nb = notebookOf(2);
    const id = nb.cells[0].id;
    nb = appendOutputs(nb, id, [{ kind: 'stream', name: 'stdout', text: 'hi\n' }]);
    nb = finishExecution(nb, id, 'done', 4);
    const md = setCellType(nb, id, 'markdown');
    expect(md.cells[0]).toMatchObject({
      type: 'markdown',
      source: 'c0',
      outputs: [],
      executionCount: null,
      status: 'idle',
    });
    expect(setCellType(md, id, 'markdown')).toBe(md);
  });

  it('returns the same notebook when the source does not change', () => {
    const nb = notebookOf(2);
    expect(setCellSource(nb, nb.cells[1].id, 'c1')).toBe(nb);
    const changed = setCellSource(nb, nb.cells[1].id, 'let x = 3;');
    expect(changed.cells[1].source).toBe('let x = 3;');
    expect(changed.cells[0]).toBe(nb.cells[0]);
  });
});

/** Reference for coalescing, written independently: group the flat list into runs. */
function coalesceReference(outputs: CellOutput[]): CellOutput[] {
  const result: CellOutput[] = [];
  let i = 0;
  while (i < outputs.length) {
    const first = outputs[i];
    if (first.kind !== 'stream') {
      result.push(first);
      i++;
      continue;
    }
    let j = i;
    let text = '';
    while (j < outputs.length) {
      const o = outputs[j];
      if (o.kind !== 'stream' || o.name !== first.name) break;
      text += o.text;
      j++;
    }
    result.push({ kind: 'stream', name: first.name, text });
    i = j;
  }
  return result;
}

describe('appendOutputs', () => {
  it('coalesces consecutive streams of the same name, across batch boundaries', () => {
    const random = rng(2024);
    for (let trial = 0; trial < 30; trial++) {
      const flat: CellOutput[] = [];
      const n = 1 + Math.floor(random() * 40);
      for (let k = 0; k < n; k++) {
        const r = random();
        if (r < 0.45) flat.push({ kind: 'stream', name: 'stdout', text: `o${k}:${random()}\n` });
        else if (r < 0.8) flat.push({ kind: 'stream', name: 'stderr', text: `e${k}\n` });
        else flat.push({ kind: 'display', data: { 'text/plain': `d${k}` } });
      }
      let nb = notebookOf(2);
      const id = nb.cells[1].id;
      const untouched = nb.cells[0];
      for (let start = 0; start < flat.length;) {
        const size = 1 + Math.floor(random() * 5);
        nb = appendOutputs(nb, id, flat.slice(start, start + size));
        start += size;
      }
      const outputs = nb.cells[1].outputs;
      expect(outputs).toEqual(coalesceReference(flat));
      for (let k = 1; k < outputs.length; k++) {
        const a = outputs[k - 1];
        const b = outputs[k];
        if (a.kind === 'stream' && b.kind === 'stream') expect(a.name).not.toBe(b.name);
      }
      expect(nb.cells[0]).toBe(untouched);
    }
  });

  it('does not merge streams separated by another output', () => {
    let nb = notebookOf(1);
    const id = nb.cells[0].id;
    nb = appendOutputs(nb, id, [
      { kind: 'stream', name: 'stdout', text: 'a' },
      { kind: 'error', ename: 'TypeError', evalue: 'x is not a function', traceback: [] },
      { kind: 'stream', name: 'stdout', text: 'b' },
    ]);
    expect(nb.cells[0].outputs.map((o) => o.kind)).toEqual(['stream', 'error', 'stream']);
    expect(appendOutputs(nb, id, [])).toBe(nb);
    expect(appendOutputs(nb, 'missing', [{ kind: 'stream', name: 'stdout', text: 'z' }])).toBe(nb);
  });
});

describe('updateDisplay', () => {
  it('replaces only the display output with that id, in that cell', () => {
    let nb = notebookOf(2);
    const [a, b] = ids(nb);
    const progress = (v: number): CellOutput => ({
      kind: 'display',
      displayId: 'p',
      data: { 'text/plain': `${v}%` },
    });
    nb = appendOutputs(nb, a, [
      progress(0),
      { kind: 'display', displayId: 'q', data: { 'text/plain': 'other' } },
    ]);
    nb = appendOutputs(nb, b, [progress(0)]);
    const updated = updateDisplay(nb, a, 'p', { 'text/plain': '73%' });
    expect(updated.cells[0].outputs).toEqual([
      progress(73),
      { kind: 'display', displayId: 'q', data: { 'text/plain': 'other' } },
    ]);
    expect(updated.cells[1]).toBe(nb.cells[1]);
    expect(updateDisplay(nb, a, 'unknown', { 'text/plain': 'x' })).toBe(nb);
  });
});

describe('execution state', () => {
  it('queue clears outputs, start sets the count, finish sets the status', () => {
    let nb = notebookOf(1);
    const id = nb.cells[0].id;
    nb = appendOutputs(nb, id, [{ kind: 'stream', name: 'stdout', text: 'old' }]);
    nb = queueCell(nb, id);
    expect(nb.cells[0]).toMatchObject({ status: 'queued', outputs: [] });
    nb = startExecution(nb, id, 9);
    expect(nb.cells[0]).toMatchObject({ status: 'running', executionCount: 9 });
    nb = finishExecution(nb, id, 'error');
    expect(nb.cells[0]).toMatchObject({ status: 'error', executionCount: 9 });
  });

  it('markdown cells are never queued', () => {
    const nb = notebookOf(3);
    expect(queueCell(nb, nb.cells[2].id)).toBe(nb);
  });

  it('clearing outputs forgets the count, except for a cell that is running', () => {
    let nb = notebookOf(2);
    const [a, b] = ids(nb);
    for (const id of [a, b]) {
      nb = startExecution(nb, id, id === a ? 1 : 2);
      nb = appendOutputs(nb, id, [{ kind: 'stream', name: 'stdout', text: 'x' }]);
    }
    nb = finishExecution(nb, a, 'done');
    const cleared = clearAllOutputs(nb);
    expect(cleared.cells[0]).toMatchObject({ outputs: [], executionCount: null, status: 'idle' });
    expect(cleared.cells[1]).toMatchObject({ outputs: [], executionCount: 2, status: 'running' });
    expect(clearOutputs(cleared, a)).toBe(cleared);
  });

  it('resetRuntimeState puts every cell at rest and keeps counts', () => {
    let nb = notebookOf(3);
    nb = startExecution(nb, nb.cells[0].id, 3);
    nb = finishExecution(nb, nb.cells[1].id, 'error', 2);
    const rested = resetRuntimeState(nb);
    expect(rested.cells.map((c) => c.status)).toEqual(['idle', 'idle', 'idle']);
    expect(rested.cells.map((c) => c.executionCount)).toEqual([3, 2, null]);
    expect(resetRuntimeState(rested)).toBe(rested);
  });
});
