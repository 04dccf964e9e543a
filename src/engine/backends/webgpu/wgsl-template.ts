/**
 * Expands the tiny template language of our `.wgsl` files: `//#if` blocks chosen by flags and
 * `/*NAME*\/` placeholders, because WGSL has no generics or preprocessor of its own.
 */

/** Flags turn `//#if NAME` blocks on; values replace `/*NAME*\/` placeholders (upper-case names). */
export interface TemplateInputs {
  readonly flags?: Iterable<string>;
  readonly values?: Readonly<Record<string, string | number>>;
}

const directive = /^\s*\/\/#(if|elif|else|endif)\b\s*(.*)$/;
const placeholder = /\/\*([A-Z][A-Z0-9_]*)\*\//g;
const anyPlaceholder = /\/\*[A-Z][A-Z0-9_]*\*\//;

/** `NAME`, `!NAME`, and `A && B` / `A || B` (no mixing, no parentheses: enough for kernels). */
function evaluate(condition: string, flags: ReadonlySet<string>, where: string): boolean {
  const text = condition.trim();
  if (text === '') throw new Error(`${where}: empty #if condition`);
  const test = (term: string): boolean => {
    const t = term.trim();
    return t.startsWith('!') ? !flags.has(t.slice(1).trim()) : flags.has(t);
  };
  if (text.includes('&&')) return text.split('&&').every(test);
  if (text.includes('||')) return text.split('||').some(test);
  return test(text);
}

interface Frame {
  /** Whether the enclosing block is emitting lines at all. */
  readonly parentActive: boolean;
  /** Whether some branch of this #if chain was already taken. */
  taken: boolean;
  active: boolean;
}

/** Expands `source` (named `name` in error messages) with the given flags and placeholder values. */
export function expandWgsl(name: string, source: string, inputs: TemplateInputs = {}): string {
  const flags = new Set(inputs.flags ?? []);
  const values = inputs.values ?? {};
  const stack: Frame[] = [];
  const out: string[] = [];
  const lines = source.split('\n');
  lines.forEach((line, index) => {
    const where = `${name}:${index + 1}`;
    const match = directive.exec(line);
    const active = stack.length === 0 || stack[stack.length - 1].active;
    // Dropped lines become blank so compiler line numbers still point into the .wgsl file.
    if (!match) {
      out.push(active ? line : '');
      return;
    }
    out.push('');
    const [, kind, condition] = match;
    if (kind === 'if') {
      const on = active && evaluate(condition, flags, where);
      stack.push({ parentActive: active, taken: on, active: on });
      return;
    }
    const frame = stack[stack.length - 1];
    if (!frame) throw new Error(`${where}: #${kind} without #if`);
    if (kind === 'elif') {
      frame.active = frame.parentActive && !frame.taken && evaluate(condition, flags, where);
      frame.taken ||= frame.active;
    } else if (kind === 'else') {
      frame.active = frame.parentActive && !frame.taken;
      frame.taken = true;
    } else {
      stack.pop();
    }
  });
  if (stack.length > 0) throw new Error(`${name}: unterminated #if`);
  // Values may themselves hold placeholders (an op expression using /*C*\/), so expand twice.
  let text = out.join('\n');
  for (let pass = 0; pass < 3 && anyPlaceholder.test(text); pass++) {
    text = text.replace(placeholder, (_, key: string) => {
      const value = values[key];
      if (value === undefined) throw new Error(`${name}: no value for placeholder /*${key}*/`);
      return String(value);
    });
  }
  if (anyPlaceholder.test(text)) throw new Error(`${name}: placeholders nested too deeply`);
  return text;
}
