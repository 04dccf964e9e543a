/**
 * IPython's non-Python lines in a cell — shell escapes (`!pip install torchkeras`) and magics
 * (`%matplotlib inline`, `%%time`) — which notebooks made in Jupyter or Colab are full of. They
 * are not Python, so before compiling, each one is replaced line for line by a statement that
 * writes a one-line note, and the rest of the cell runs. Line numbers stay those of the cell, so
 * tracebacks point at the user's lines.
 *
 * As IPython, only lines where a statement starts count: a `%` or `!` inside a triple-quoted
 * string, inside brackets or after a backslash continuation is Python and left alone. A cell
 * magic whose body is not Python (`%%bash`, `%%writefile`, …) skips the whole cell with a note.
 */

import { pipInstallOf } from './packages/pip-line';

export interface ShellLineRewrite {
  /** The cell's code with every shell or magic line replaced; same number of lines. */
  code: string;
  /** The lines that were replaced (as written), in order. */
  replaced: string[];
}

/** Cell magics whose body is Python: the body runs, only the magic is skipped. */
const PYTHON_BODY_CELL_MAGICS = new Set(['time', 'timeit', 'capture', 'prun', 'debug']);

/** One line of Python source per cell line, however long the note. */
function noteStatement(indent: string, note: string): string {
  // A JSON string literal is a valid Python string literal (same escapes, no `\/` emitted).
  return `${indent}__import__("sys").stdout.write(${JSON.stringify(`${note}\n`)})`;
}

/**
 * `%matplotlib …` and `%config InlineBackend.…` run: figures are shown inline by our matplotlib
 * backend, which these set up (src/api/python/_gpubook_matplotlib/, imported without matplotlib).
 */
function inlineMagicStatement(indent: string, line: string): string | null {
  const magic = /^%(matplotlib|config)(?:\s+(.*))?$/.exec(line.trim());
  if (!magic || (magic[1] === 'config' && !magic[2]?.startsWith('InlineBackend.'))) return null;
  const [name, args] = [JSON.stringify(magic[1]), JSON.stringify(magic[2] ?? '')];
  return `${indent}__import__("_gpubook_matplotlib").run_line_magic(${name}, ${args})`;
}

export function noteFor(line: string): string {
  const command = line.trim();
  if (command.startsWith('!')) {
    return `[gpubook] skipped \`${command}\`: gpubook's browser Python has no shell (packages: %pip install, or just import one of Pyodide's).`;
  }
  return `[gpubook] skipped \`${command}\`: IPython magics do not run in gpubook's browser Python.`;
}

/** Lines where a statement starts, as a tokenizer sees them (strings, brackets, backslashes). */
export function statementStarts(source: string): boolean[] {
  const lines = source.split('\n');
  const starts: boolean[] = [];
  let depth = 0;
  let quote: string | null = null; // the open string's delimiter: ', ", ''' or """
  let continued = false;
  for (const line of lines) {
    starts.push(depth === 0 && quote === null && !continued);
    continued = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quote !== null) {
        if (ch === '\\') i++;
        else if (line.startsWith(quote, i)) {
          i += quote.length - 1;
          quote = null;
        }
        continue;
      }
      if (ch === '#') break;
      if (ch === '"' || ch === "'") {
        quote = line.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch;
        i += quote.length - 1;
      } else if (ch === '(' || ch === '[' || ch === '{') depth++;
      else if (ch === ')' || ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
      else if (ch === '\\' && i === line.length - 1) continued = true;
    }
    // A single-quoted string cannot span lines (without a backslash, a SyntaxError anyway).
    if (quote !== null && quote.length === 1 && !line.endsWith('\\')) quote = null;
    if (quote !== null && quote.length === 1) continued = true;
  }
  return starts;
}

export function rewriteShellLines(source: string): ShellLineRewrite {
  const lines = source.split('\n');
  const starts = statementStarts(source);
  const replaced: string[] = [];

  const firstCode = lines.findIndex((line) => line.trim() !== '' && !line.trim().startsWith('#'));
  const cellMagic = firstCode >= 0 ? /^\s*%%(\w+)/.exec(lines[firstCode]) : null;
  if (cellMagic && !PYTHON_BODY_CELL_MAGICS.has(cellMagic[1])) {
    // The body belongs to the magic (a shell script, a file's text): none of it is Python.
    replaced.push(lines[firstCode]);
    const note = `[gpubook] skipped this cell: \`%%${cellMagic[1]}\` is an IPython cell magic, and its body is not Python.`;
    const code = lines.map((_, i) => (i === firstCode ? noteStatement('', note) : '')).join('\n');
    return { code, replaced };
  }

  const out = lines.slice();
  for (let i = 0; i < lines.length; i++) {
    const match = /^(\s*)[!%]/.exec(lines[i]);
    if (!starts[i] || !match) continue;
    replaced.push(lines[i]);
    // `%pip install` runs before the cell (python-kernel.ts): the line itself does nothing.
    const pip = pipInstallOf(lines[i]) ? `${match[1]}pass` : null;
    out[i] =
      pip ?? inlineMagicStatement(match[1], lines[i]) ?? noteStatement(match[1], noteFor(lines[i]));
    // A backslash at the end continues the shell line; its continuation lines go with it.
    while (lines[i].endsWith('\\') && i + 1 < lines.length) {
      i++;
      out[i] = '';
    }
  }
  return { code: out.join('\n'), replaced };
}
