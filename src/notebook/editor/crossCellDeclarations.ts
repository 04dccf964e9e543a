/**
 * Lets the editor know names that other cells declare. The kernel keeps every top-level name on
 * one scope, so cell 2 may use `net` from cell 1; each cell is type-checked as its own module,
 * where `net` would be "Cannot find name". The editor therefore adds one ambient declaration file
 * per notebook declaring those names as `any` (a cell's own declarations shadow them).
 *
 * Finding the names is a quick heuristic on unindented lines (top-level statements in cells are
 * not indented), cheap enough to rerun while typing; missing a name only costs a squiggle.
 */

export interface TopLevelNames {
  /** Names of values: const/let/var (destructuring included), functions, classes, enums. */
  values: string[];
  /** Names of types: interfaces, type aliases, classes, enums. */
  types: string[];
}

const IDENT = /^[A-Za-z_$][\w$]*/;
const DECLARATION = /^(?:export\s+)?(?:declare\s+)?(?:const|let|var|using)\s+(.*)$/;
const FUNCTION = /^(?:export\s+)?(?:declare\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/;
const CLASS = /^(?:export\s+)?(?:declare\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/;
const TYPE = /^(?:export\s+)?(?:declare\s+)?(?:interface|type)\s+([A-Za-z_$][\w$]*)/;
const ENUM = /^(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+([A-Za-z_$][\w$]*)/;

const OPEN: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };
const CLOSE = new Set([')', ']', '}', '>']);

/**
 * Calls `visit(ch, i)` for each character of `text` outside string literals (their quotes and
 * escapes skipped) until it returns true, and returns that index; -1 if it never does.
 */
function scanCode(text: string, visit: (ch: string, i: number) => boolean): number {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if (visit(ch, i)) return i;
  }
  return -1;
}

/** Splits at `separator` outside brackets and string literals. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  scanCode(text, (ch, i) => {
    if (ch in OPEN && ch !== '<') depth++;
    else if (CLOSE.has(ch) && ch !== '>') depth--;
    else if (ch === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
    return false;
  });
  parts.push(text.slice(start));
  return parts;
}

/** Index just past the bracket matching the one at `text[0]`, or -1 if it does not close. */
function matchingBracket(text: string): number {
  const close = OPEN[text[0]];
  let depth = 0;
  const at = scanCode(text, (ch) => {
    if (ch === text[0]) depth++;
    else if (ch === close && --depth === 0) return true;
    return false;
  });
  return at < 0 ? -1 : at + 1;
}

/** `x = 1` → `x` (the default value of a binding element is not a name). */
function withoutDefault(element: string): string {
  return splitTopLevel(element, '=')[0].trim();
}

/** The names a binding pattern binds: `x`, `{ a, b: c, ...d }`, `[e, , [f]]`. */
function bindingNames(pattern: string): string[] {
  const text = pattern.trim();
  if (text.startsWith('{') || text.startsWith('[')) {
    const end = matchingBracket(text);
    if (end < 0) return [];
    const names: string[] = [];
    for (const part of splitTopLevel(text.slice(1, end - 1), ',')) {
      let element = part.trim();
      if (!element) continue;
      if (element.startsWith('...')) element = element.slice(3);
      else if (text.startsWith('{')) {
        const [key, ...value] = splitTopLevel(element, ':');
        element = value.length > 0 ? value.join(':') : key;
      }
      names.push(...bindingNames(withoutDefault(element)));
    }
    return names;
  }
  const ident = IDENT.exec(text);
  return ident ? [ident[0]] : [];
}

export function topLevelNames(source: string): TopLevelNames {
  const values: string[] = [];
  const types: string[] = [];
  for (const line of source.split('\n')) {
    if (!line || line[0] === ' ' || line[0] === '\t') continue;
    const cls = CLASS.exec(line) ?? ENUM.exec(line); // before DECLARATION: `const enum`
    if (cls) {
      values.push(cls[1]);
      types.push(cls[1]);
      continue;
    }
    const declaration = DECLARATION.exec(line);
    if (declaration) {
      // `let a = f(1, 2), b;` → the part before each top-level `=` of each declarator.
      for (const declarator of splitTopLevel(declaration[1].replace(/;\s*$/, ''), ',')) {
        const target = declarator.trim();
        if (target.startsWith('{') || target.startsWith('[')) {
          values.push(...bindingNames(target));
        } else {
          const ident = IDENT.exec(target);
          if (ident) values.push(ident[0]);
        }
      }
      continue;
    }
    const fn = FUNCTION.exec(line);
    if (fn) {
      values.push(fn[1]);
      continue;
    }
    const type = TYPE.exec(line);
    if (type) types.push(type[1]);
  }
  return { values: unique(values), types: unique(types) };
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}

/**
 * The ambient declarations for names declared by any cell of the notebook, except `reserved`
 * (the cell API's globals, which must keep their real types).
 */
export function crossCellDeclarations(
  sources: readonly string[],
  reserved: ReadonlySet<string>,
): string {
  const values = new Set<string>();
  const types = new Set<string>();
  for (const source of sources) {
    const names = topLevelNames(source);
    for (const name of names.values) if (!reserved.has(name)) values.add(name);
    for (const name of names.types) if (!reserved.has(name)) types.add(name);
  }
  const lines = [
    "// Names declared by the notebook's cells (the kernel shares them between cells).",
  ];
  for (const name of [...values].sort()) lines.push(`declare var ${name}: any;`);
  for (const name of [...types].sort()) lines.push(`type ${name} = any;`);
  return `${lines.join('\n')}\n`;
}
