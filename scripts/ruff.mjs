// Ruff over every .py file in the repo, through ruff's WebAssembly build
// (@astral-sh/ruff-wasm-nodejs: an API, not a CLI), with the settings in ../ruff.toml.
//
//   node scripts/ruff.mjs          lint + format check; prints path:line:col messages, exits 1 on any
//   node scripts/ruff.mjs --fix    applies the safe lint fixes (FIXABLE below), then formats
//   node scripts/ruff.mjs --list   prints the files it checks, one a line
//   node scripts/ruff.mjs [--fix] PATH…   only those of its files under these paths
//
// The files are git's: tracked and untracked-but-not-ignored `*.py` (so node_modules, dist, … are
// never read), less ruff.toml's `exclude` / `extend-exclude` globs.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PositionEncoding, Workspace } from '@astral-sh/ruff-wasm-nodejs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The WebAssembly build reports a fix without its applicability (safe or unsafe), so --fix
// applies only these rules' fixes, which ruff always marks safe. Trailing whitespace needs none:
// the formatter strips it everywhere but inside strings, where removing it would change the text.
const FIXABLE = new Set(['I001', 'F541', 'E703', 'W292', 'W391']);

/**
 * The plain TOML ruff.toml uses: `[a.b]` tables, `key = value` with a JSON-compatible value
 * (double-quoted string, number, boolean, array of those, which may span lines and end in a
 * comma), `#` comments. Anything else throws.
 */
export function parseToml(text, file = 'ruff.toml') {
  const root = {};
  let table = root;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const at = i;
    const fail = () => {
      throw new Error(
        `${file}:${at + 1}: scripts/ruff.mjs reads only plain TOML: ${lines[at].trim()}`,
      );
    };
    const line = stripComment(lines[i]).trim();
    if (!line) continue;
    const header = /^\[([A-Za-z0-9_.-]+)\]$/.exec(line);
    if (header) {
      table = root;
      for (const key of header[1].split('.')) table = table[key] ??= {};
      continue;
    }
    const pair = /^([A-Za-z0-9_-]+)\s*=\s*(.+)$/.exec(line);
    if (!pair) fail();
    let value = pair[2];
    // An array goes on until a line ends with its closing bracket.
    if (value.startsWith('[')) {
      while (!value.endsWith(']') && i + 1 < lines.length) value += stripComment(lines[++i]).trim();
      value = value.replace(/,\s*\]$/, ']');
    }
    try {
      table[pair[1]] = JSON.parse(value);
    } catch {
      fail();
    }
  }
  return root;
}

/** The line without a trailing `# comment` (a `#` inside a double-quoted string stays). */
function stripComment(line) {
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (inString && c === '\\') i++;
    else if (c === '"') inString = !inString;
    else if (c === '#' && !inString) return line.slice(0, i);
  }
  return line;
}

/** A ruff exclude glob (`*`, `**`, `?`) as a RegExp over a repo-relative path. */
function globRegExp(glob) {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Whether a path or one of its folders matches one of the globs (as ruff's exclude does). */
function excluded(file, globs) {
  const parts = file.split('/');
  return globs.some((re) => parts.some((_, n) => re.test(parts.slice(0, n + 1).join('/'))));
}

export function loadSettings(root = ROOT) {
  return parseToml(readFileSync(path.join(root, 'ruff.toml'), 'utf8'));
}

/** Every .py file ruff checks, repo-relative, sorted. */
export function pythonFiles(root = ROOT, settings = loadSettings(root)) {
  const globs = [...(settings.exclude ?? []), ...(settings['extend-exclude'] ?? [])].map(
    globRegExp,
  );
  const listed = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '*.py'],
    { cwd: root, encoding: 'utf8' },
  );
  const files = [...new Set(listed.split('\0').filter(Boolean))];
  // --cached still lists a tracked file deleted in the working tree.
  return files.filter((f) => existsSync(path.join(root, f)) && !excluded(f, globs)).sort();
}

/** Ruff's workspace for these settings (the file list's own keys are not ruff options here). */
function workspace(settings) {
  const options = { ...settings };
  delete options.exclude;
  delete options['extend-exclude'];
  return new Workspace(options, PositionEncoding.Utf16);
}

/** Offsets of each line's start, for ruff's 1-based row/column (UTF-16 columns, as JS strings). */
function offsetOf(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return ({ row, column }) => (starts[row - 1] ?? text.length) + column - 1;
}

/** The text with the FIXABLE fixes applied, re-checked until none is left (as `ruff --fix`). */
function applyFixes(ws, text) {
  for (let round = 0; round < 10; round++) {
    const at = offsetOf(text);
    const edits = [];
    for (const d of ws.check(text)) {
      if (!d.fix || !FIXABLE.has(d.code)) continue;
      const mine = d.fix.edits.map((e) => ({
        from: at(e.location),
        to: at(e.end_location),
        content: e.content ?? '',
      }));
      // A fix is applied whole or not at all; one overlapping another waits for the next round.
      if (mine.some((m) => edits.some((e) => m.from < e.to && e.from < m.to))) continue;
      edits.push(...mine);
    }
    if (!edits.length) return text;
    edits.sort((a, b) => b.from - a.from);
    for (const e of edits) text = text.slice(0, e.from) + e.content + text.slice(e.to);
  }
  return text;
}

/** The first line where two texts differ (1-based). */
function firstDifference(a, b) {
  const x = a.split('\n');
  const y = b.split('\n');
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  return i + 1;
}

function main(argv) {
  const settings = loadSettings();
  const only = argv
    .filter((a) => !a.startsWith('--'))
    .map((a) => path.relative(ROOT, path.resolve(a)).split(path.sep).join('/'));
  const files = pythonFiles(ROOT, settings).filter(
    (f) => !only.length || only.some((o) => f === o || f.startsWith(`${o}/`)),
  );
  if (argv.includes('--list')) {
    for (const f of files) console.log(f);
    return 0;
  }
  const fix = argv.includes('--fix');
  const ws = workspace(settings);
  let problems = 0;
  let changed = 0;
  for (const file of files) {
    const full = path.join(ROOT, file);
    const original = readFileSync(full, 'utf8');
    let text = original;
    if (fix) {
      text = applyFixes(ws, text);
      try {
        text = ws.format(text);
      } catch (error) {
        console.log(`${file}: could not be formatted: ${error}`);
        problems++;
      }
      if (text !== original) {
        writeFileSync(full, text);
        changed++;
      }
    }
    const diagnostics = ws
      .check(text)
      .sort(
        (a, b) =>
          a.start_location.row - b.start_location.row ||
          a.start_location.column - b.start_location.column,
      );
    for (const d of diagnostics) {
      const { row, column } = d.start_location;
      const hint = d.fix && !fix ? ` [fix: ${d.fix.message ?? 'available'}]` : '';
      console.log(`${file}:${row}:${column}: ${d.code ?? 'error'} ${d.message}${hint}`);
      problems++;
    }
    if (!fix) {
      let formatted;
      try {
        formatted = ws.format(text);
      } catch {
        continue; // a syntax error, already reported by check
      }
      if (formatted !== text) {
        console.log(
          `${file}:${firstDifference(text, formatted)}:1: not formatted as ruff format would (npm run format)`,
        );
        problems++;
      }
    }
  }
  const what = `ruff ${Workspace.version()}: ${files.length} Python files`;
  if (fix) console.log(`${what}, ${changed} changed, ${problems} problems left`);
  else if (problems) console.log(`${what}, ${problems} problems`);
  return problems ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
