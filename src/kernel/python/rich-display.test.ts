/**
 * IPython's display protocol through the kernel session and the real Pyodide: a last expression
 * with `_repr_html_` becomes `Out[n]` with its whole bundle, `display()` (the builtin and
 * `IPython.display`'s) makes display outputs, a `display_id` handle updates its output, and
 * `clear_output` clears the cell (at once, or with `wait=True` when the next output comes).
 */
import { describe, expect, it } from 'vitest';
import type { CellOutput } from '../protocol';
import { startNodePython, startSession } from './testing/node-python';

const { events, run: runCell } = startSession({ python: startNodePython });
/** The execution count of the last cell run (the session counts from 1). */
let count = 0;

/** Runs a Python cell; its outputs as the page would hold them (clears and updates applied). */
async function run(code: string): Promise<{ status: string; outputs: CellOutput[] }> {
  count++;
  const { status, cellId } = await runCell(code);
  let outputs: CellOutput[] = [];
  for (const e of events) {
    if (!('cellId' in e) || e.cellId !== cellId) continue;
    if (e.type === 'output') outputs.push(...e.outputs);
    else if (e.type === 'clear-output') outputs = [];
    else if (e.type === 'update-display') {
      outputs = outputs.map((o) =>
        o.kind === 'display' && o.displayId === e.displayId ? { ...o, data: e.data } : o,
      );
    }
  }
  return { status, outputs };
}

const RICH = `
class Rich:
    def __repr__(self):
        return "Rich()"
    def _repr_html_(self):
        return "<b>rich</b>"
    def _repr_png_(self):
        return b"\\x89PNG\\r\\n\\x1a\\n", {"width": 3}
`;

describe('IPython display protocol in the Python kernel', () => {
  it('a last expression with _repr_html_ is Out[n] with every representation; a plain one stays its repr', async () => {
    const { status, outputs } = await run(`${RICH}\nRich()`);
    expect(status).toBe('ok');
    expect(outputs).toEqual([
      {
        kind: 'result',
        executionCount: count,
        data: { 'text/html': '<b>rich</b>', 'image/png': 'iVBORw0KGgo=', 'text/plain': 'Rich()' },
        metadata: { 'image/png': { width: 3 } },
      },
    ]);
    const plain = await run('[1, 2]');
    expect(plain.outputs).toEqual([
      { kind: 'result', executionCount: count, data: { 'text/plain': '[1, 2]' } },
    ]);
    const html = await run('from IPython.display import HTML\nHTML("<p>x</p>")');
    expect(html.outputs[0]).toMatchObject({
      kind: 'result',
      data: { 'text/html': '<p>x</p>', 'text/plain': '<IPython.core.display.HTML object>' },
    });
  }, 60_000);

  it('display() of rich objects makes display outputs in call order; plain values print as before', async () => {
    const { outputs } = await run(`
from IPython.display import display as ipy_display, Markdown, SVG, JSON, Image
print("before")
display(Rich())
ipy_display(Markdown("**md**"), SVG('<svg xmlns="http://www.w3.org/2000/svg"/>'))
display(JSON({"a": 1}))
display(Image(data=b"\\x89PNG\\r\\n\\x1a\\n", width=4))
display(object.__new__(type("Thing", (), {"__repr__": lambda self: "<a thing>"})))
print("after")
`);
    expect(outputs.map((o) => o.kind)).toEqual([
      'stream',
      'display',
      'display',
      'display',
      'display',
      'display',
      'stream',
    ]);
    const data = outputs.map((o) => (o.kind === 'display' ? o.data : null));
    expect(data[1]).toMatchObject({ 'text/html': '<b>rich</b>', 'text/plain': 'Rich()' });
    expect(data[2]).toMatchObject({ 'text/markdown': '**md**' });
    expect(data[3]?.['image/svg+xml']).toMatch(/^<svg/);
    expect(data[4]?.['application/json']).toEqual({ a: 1 });
    expect(data[5]?.['image/png']).toBe('iVBORw0KGgo=');
    expect(outputs[5]).toMatchObject({ metadata: { 'image/png': { width: 4 } } });
    expect(outputs[6]).toEqual({ kind: 'stream', name: 'stdout', text: '<a thing>\nafter\n' });
  }, 60_000);

  it('a display_id handle updates its output in place; update_display does too', async () => {
    const { outputs } = await run(`
from IPython.display import HTML, update_display
h = display(HTML("<i>1</i>"), display_id=True)
display(HTML("<i>other</i>"), display_id="other")
h.update(HTML("<i>2</i>"))
update_display(HTML("<i>3</i>"), display_id="other")
repr(h).startswith("<DisplayHandle display_id=")
`);
    const shown = outputs.flatMap((o) => (o.kind === 'display' ? [o.data['text/html']] : []));
    expect(shown).toEqual(['<i>2</i>', '<i>3</i>']);
    expect(outputs.at(-1)).toMatchObject({ kind: 'result', data: { 'text/plain': 'True' } });
  }, 60_000);

  it('clear_output clears the cell; with wait=True only when the next output comes', async () => {
    const now = await run(`
from IPython.display import clear_output, HTML
print("gone")
display(HTML("<b>gone too</b>"))
clear_output()
print("kept")
`);
    expect(now.outputs).toEqual([{ kind: 'stream', name: 'stdout', text: 'kept\n' }]);
    const waiting = await run(`
from IPython.display import clear_output
for i in range(3):
    clear_output(wait=True)
    print("step", i)
clear_output(wait=True)
`);
    expect(waiting.outputs).toEqual([{ kind: 'stream', name: 'stdout', text: 'step 2\n' }]);
  }, 60_000);

  it('get_ipython() is None, and IPython.core.display still has the old names', async () => {
    const { outputs } = await run(
      'import IPython\nfrom IPython.core.display import HTML, display\n(IPython.get_ipython(), HTML.__name__)',
    );
    expect(outputs).toEqual([
      { kind: 'result', executionCount: count, data: { 'text/plain': "(None, 'HTML')" } },
    ]);
  }, 60_000);
});
