/**
 * matplotlib's inline backend as the kernel sets it up, in the real Pyodide of a kernel session.
 * Pyodide here has no matplotlib (it comes from Pyodide's CDN in a browser), so this checks the
 * kernel's side only: MPLBACKEND names our backend, every cell ends with the figure flush (which
 * imports nothing), and `%matplotlib` / `%config InlineBackend.…` lines run instead of printing a
 * note. The backend itself is tested under Debian's CPython with real matplotlib
 * (src/api/python/matplotlib-inline.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { CellOutput } from '../protocol';
import { rewriteShellLines } from './shell-lines';
import { startNodePython, startSession } from './testing/node-python';

describe('inline matplotlib magics in the shell-line rewrite', () => {
  it('turns %matplotlib and %config InlineBackend lines into calls, line for line', () => {
    const source = [
      '%matplotlib inline',
      'if True:',
      "    %config InlineBackend.figure_format = 'retina'",
      '%config Completer.use_jedi = False',
      '%matplotlib',
    ].join('\n');
    const lines = rewriteShellLines(source).code.split('\n');
    expect(lines[0]).toBe(
      '__import__("_gpubook_matplotlib").run_line_magic("matplotlib", "inline")',
    );
    expect(lines[2]).toBe(
      `    __import__("_gpubook_matplotlib").run_line_magic("config", "InlineBackend.figure_format = 'retina'")`,
    );
    // Any other %config is not ours: it stays a note.
    expect(lines[3]).toMatch(/^__import__\("sys"\)\.stdout\.write\(.*skipped `%config Completer/);
    expect(lines[4]).toBe('__import__("_gpubook_matplotlib").run_line_magic("matplotlib", "")');
  });
});

describe('inline matplotlib in the Python kernel', () => {
  const { run: runCell, outputsOf } = startSession({ python: startNodePython });
  const run = async (code: string): Promise<{ status: string; outputs: CellOutput[] }> => {
    const { status, cellId } = await runCell(code);
    return { status, outputs: outputsOf(cellId) };
  };
  const text = (outputs: CellOutput[]) =>
    outputs.map((o) => (o.kind === 'stream' ? o.text : JSON.stringify(o))).join('');

  it('MPLBACKEND names our backend before any cell imports matplotlib', async () => {
    const { outputs } = await run('import os\nos.environ["MPLBACKEND"]');
    expect(outputs).toMatchObject([
      { kind: 'result', data: { 'text/plain': "'module://_gpubook_matplotlib.backend_inline'" } },
    ]);
  }, 120_000);

  it('%matplotlib inline is silent; notebook and widget say that figures are inline', async () => {
    const inline = await run('%matplotlib inline\nx = 1');
    expect(inline).toEqual({ status: 'ok', outputs: [] });
    const widget = await run('%matplotlib widget\n%matplotlib notebook');
    const lines = text(widget.outputs).trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[gpubook\] `%matplotlib widget`: figures are shown inline/);
    expect(lines[1]).toMatch(/^\[gpubook\] `%matplotlib notebook`: figures are shown inline/);
  });

  it("%config InlineBackend.figure_format = 'retina' is kept; a bad format is IPython's error", async () => {
    const retina = await run(
      "%config InlineBackend.figure_format = 'retina'\nimport _gpubook_matplotlib\nsorted(_gpubook_matplotlib.figure_formats)",
    );
    expect(retina.outputs).toMatchObject([
      { kind: 'result', data: { 'text/plain': "['retina']" } },
    ]);
    const bad = await run("%config InlineBackend.figure_format = 'gif'");
    expect(bad.status).toBe('error');
    expect(bad.outputs).toMatchObject([
      {
        kind: 'error',
        ename: 'ValueError',
        evalue: expect.stringMatching(/^supported formats are: .* not 'gif'$/),
      },
    ]);
    await run("%config InlineBackend.figure_format = 'png'");
  });

  it('every cell ends with the figure flush, given its last value, even when it raised', async () => {
    await run(`
import _gpubook_matplotlib
flushed = []
_real_flush = _gpubook_matplotlib.flush_figures
def _spy(shown=None):
    flushed.append(shown)
    _real_flush(shown)
_gpubook_matplotlib.flush_figures = _spy
`);
    await run('41 + 1');
    const raised = await run('1 / 0');
    expect(raised.status).toBe('error');
    const { outputs } = await run('_gpubook_matplotlib.flush_figures = _real_flush\nflushed');
    // The spy's own cell ends with a flush of None; then 42, then the raising cell's None.
    expect(outputs).toMatchObject([{ kind: 'result', data: { 'text/plain': '[None, 42, None]' } }]);
  });

  it("the figures come after the cell's Out or traceback, as Jupyter's post-execute hook", async () => {
    await run(`
import _gpubook_matplotlib
from IPython.display import display
_real_flush = _gpubook_matplotlib.flush_figures
_gpubook_matplotlib.flush_figures = lambda shown=None: display("<figure>")
`);
    const value = await run('41 + 1');
    expect(value.outputs.map((o) => o.kind)).toEqual(['result', 'display']);
    const raised = await run('1 / 0');
    expect(raised.outputs.map((o) => o.kind)).toEqual(['error', 'display']);
    await run('_gpubook_matplotlib.flush_figures = _real_flush');
  });

  it('the flush imports nothing when no cell used matplotlib', async () => {
    const { outputs } = await run(
      'import sys\nsorted(m for m in sys.modules if m.startswith(("matplotlib", "_gpubook_matplotlib.")))',
    );
    expect(outputs).toMatchObject([{ kind: 'result', data: { 'text/plain': '[]' } }]);
  });
});
