/**
 * What the Python editor knows of gpubook's Python faces: python-names.json, the names the real
 * packages answer to (generated from them by list_names.py, kept equal by python-names.test.ts),
 * and the cell's import aliases that lead to them (`import tensorflow as tf`, `from torch import
 * nn`). Completions and hovers are plain data here; monacoPython.ts hands them to Monaco.
 */
import listing from './python-names.json';

export type PythonNameKind = 'module' | 'class' | 'function' | 'constant';

export interface PythonName {
  name: string;
  /** The dotted path as the cell wrote it (`tf.config.set_visible_devices`). */
  path: string;
  kind: PythonNameKind;
  /** `(devices, device_type=None)`, or null where Python cannot say (TypeScript-layer names). */
  signature: string | null;
  doc: string | null;
}

type Entry = [string, string | null, string | null];
export type PythonNamespaces = Readonly<Record<string, Readonly<Record<string, Entry>>>>;

// JSON's arrays type as lists; list_names.py writes each entry as [kind, signature, doc].
export const PYTHON_NAMES = listing as unknown as PythonNamespaces;

/**
 * The chapters' aliases, for a cell written before the cell that imports them (imports the cells
 * do write win), and gpubook's helpers, which the kernel makes every cell's names.
 */
const CONVENTIONAL: Readonly<Record<string, string>> = {
  torch: 'torch',
  nn: 'torch.nn',
  F: 'torch.nn.functional',
  torchvision: 'torchvision',
  tf: 'tensorflow',
  tensorflow: 'tensorflow',
  gpubook: 'gpubook',
};

const IDENT = '[A-Za-z_]\\w*';
const DOTTED = `${IDENT}(?:\\s*\\.\\s*${IDENT})*`;
const IMPORT = new RegExp(`^[ \\t]*import[ \\t]+(.+)$`, 'gm');
const FROM_IMPORT = new RegExp(
  `^[ \\t]*from[ \\t]+(${DOTTED})[ \\t]+import[ \\t]+(\\([^)]*\\)|[^\\n#]+)`,
  'gm',
);

const clean = (dotted: string): string => dotted.replace(/\s+/g, '');

/**
 * Each name the sources bind to a module or member path, by their imports (later ones win), over
 * the conventional aliases. `import torch.nn` binds `torch`; `import torch.nn as nn` binds `nn`.
 */
export function importAliases(sources: readonly string[]): Map<string, string> {
  const aliases = new Map(Object.entries(CONVENTIONAL));
  for (const source of sources) {
    for (const [, list] of source.matchAll(IMPORT)) {
      for (const part of list.replace(/#.*/, '').split(',')) {
        const match = new RegExp(`^\\s*(${DOTTED})(?:\\s+as\\s+(${IDENT}))?\\s*$`).exec(part);
        if (!match) continue;
        const path = clean(match[1]);
        aliases.set(match[2] ?? path.split('.')[0], match[2] ? path : path.split('.')[0]);
      }
    }
    for (const [, from, list] of source.matchAll(FROM_IMPORT)) {
      const names = list.replace(/[()]/g, '').replace(/#.*$/gm, '');
      for (const part of names.split(',')) {
        const match = new RegExp(`^\\s*(${IDENT})(?:\\s+as\\s+(${IDENT}))?\\s*$`).exec(part);
        if (match) aliases.set(match[2] ?? match[1], `${clean(from)}.${match[1]}`);
      }
    }
  }
  return aliases;
}

function entry(path: string, shown: string): PythonName | null {
  const dot = path.lastIndexOf('.');
  if (dot < 0) {
    return path in PYTHON_NAMES
      ? { name: path, path: shown, kind: 'module', signature: null, doc: null }
      : null;
  }
  const found = PYTHON_NAMES[path.slice(0, dot)]?.[path.slice(dot + 1)];
  if (!found) return null;
  const [kind, signature, doc] = found;
  return { name: path.slice(dot + 1), path: shown, kind: kind as PythonNameKind, signature, doc };
}

/** The real path of a dotted expression as written (`tf.keras` → `tensorflow.keras`), or null. */
export function resolvePath(written: string, aliases: Map<string, string>): string | null {
  const [head, ...rest] = written.split('.');
  const start = aliases.get(head);
  return start === undefined ? null : [start, ...rest].join('.');
}

/** The names a namespace offers after `written.` (`tf.config.`), or null when it is not one. */
export function namesAfter(written: string, aliases: Map<string, string>): PythonName[] | null {
  const path = resolvePath(written, aliases);
  const members = path === null ? undefined : PYTHON_NAMES[path];
  if (!members) return null;
  return Object.keys(members).map(
    (name) => entry(`${path}.${name}`, `${written}.${name}`) as PythonName,
  );
}

/** What a dotted expression as written names (`torch.cuda.empty_cache`), or null. */
export function describe(written: string, aliases: Map<string, string>): PythonName | null {
  const path = resolvePath(written, aliases);
  return path === null ? null : entry(path, written);
}

/** Whether the end of a line's text is inside a string or a comment (one line's view of it). */
function inStringOrComment(line: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '#') return true;
    else if (c === '"' || c === "'") quote = c;
  }
  return quote !== null;
}

/**
 * The completion context at the end of `before` (the line up to the cursor): `tf.con|` → tf,
 * con; none inside a string or a comment.
 */
export function memberContext(before: string): { namespace: string; prefix: string } | null {
  if (inStringOrComment(before)) return null;
  const match = new RegExp(`(?:^|[^\\w.])(${IDENT}(?:\\.${IDENT})*)\\.(\\w*)$`).exec(before);
  return match ? { namespace: match[1], prefix: match[2] } : null;
}

/**
 * The dotted expression under `column` (0-based) of `line`, up to the end of the identifier
 * there: hovering `config` in `tf.config.list_physical_devices()` gives `tf.config`.
 */
export function dottedAt(
  line: string,
  column: number,
): { text: string; start: number; end: number } | null {
  const word = /\w/;
  if (!word.test(line[column] ?? '')) return null;
  let end = column;
  while (end < line.length && word.test(line[end])) end++;
  let start = column;
  while (start > 0 && (word.test(line[start - 1]) || line[start - 1] === '.')) start--;
  const text = line.slice(start, end).replace(/^\.+/, '');
  start = end - text.length;
  if (!new RegExp(`^${IDENT}(?:\\.${IDENT})*$`).test(text)) return null;
  return { text, start, end };
}

/** A hover's text: the signature as Python shows it, then the docstring's first paragraph. */
export function hoverText(name: PythonName): string[] {
  const head =
    name.kind === 'module'
      ? `module ${name.path}`
      : `${name.kind === 'class' ? 'class ' : ''}${name.path}${name.signature ?? (name.kind === 'constant' ? '' : '(…)')}`;
  return [`\`\`\`python\n${head}\n\`\`\``, ...(name.doc ? [name.doc] : [])];
}
