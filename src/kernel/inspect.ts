/**
 * A short, readable text form of any JavaScript value, as a REPL shows it: strings quoted, long
 * arrays and typed arrays summarised, nested objects cut at a depth, cycles marked.
 */

export interface InspectOptions {
  /** Strings at the top level are shown raw (as `print` does) instead of quoted. */
  rawStrings?: boolean;
  maxDepth?: number;
  maxItems?: number;
  maxStringLength?: number;
}

const DEFAULTS: Required<InspectOptions> = {
  rawStrings: false,
  maxDepth: 3,
  maxItems: 100,
  maxStringLength: 10_000,
};

export function inspect(value: unknown, options: InspectOptions = {}): string {
  const o = { ...DEFAULTS, ...options };
  if (typeof value === 'string' && o.rawStrings) return value;
  return format(value, o, 0, new Set());
}

function format(
  value: unknown,
  o: Required<InspectOptions>,
  depth: number,
  seen: Set<object>,
): string {
  switch (typeof value) {
    case 'string': {
      const s =
        value.length > o.maxStringLength
          ? `${value.slice(0, o.maxStringLength)}… (${value.length} characters)`
          : value;
      return JSON.stringify(s);
    }
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return `${value}n`;
    case 'boolean':
    case 'undefined':
      return String(value);
    case 'symbol':
      return value.toString();
    case 'function':
      // A callable instance (a module, a Keras layer or loss) is shown as the object it is.
      if (!isCallableInstance(value)) {
        return isClass(value)
          ? `[class ${value.name || 'anonymous'}]`
          : `[Function: ${value.name || 'anonymous'}]`;
      }
  }
  if (value === null) return 'null';
  const object = value as object;
  if (seen.has(object)) return '[Circular]';
  if (object instanceof Date) return object.toISOString();
  if (object instanceof RegExp) return object.toString();
  if (object instanceof Error) return `${object.name}: ${object.message}`;
  if (ArrayBuffer.isView(object) && !(object instanceof DataView)) {
    return formatTyped(object as unknown as ArrayLike<number | bigint>, o);
  }
  if (object instanceof Promise) return 'Promise { … }';
  if (depth >= o.maxDepth) return Array.isArray(object) ? '[Array]' : '[Object]';

  seen.add(object);
  try {
    if (Array.isArray(object)) {
      const items = object.slice(0, o.maxItems).map((v) => format(v, o, depth + 1, seen));
      if (object.length > o.maxItems) items.push(`… ${object.length - o.maxItems} more items`);
      return wrap('[', items, ']');
    }
    if (object instanceof Map) {
      const items = [...object.entries()]
        .slice(0, o.maxItems)
        .map(([k, v]) => `${format(k, o, depth + 1, seen)} => ${format(v, o, depth + 1, seen)}`);
      return `Map(${object.size}) ${wrap('{', items, '}')}`;
    }
    if (object instanceof Set) {
      const items = [...object].slice(0, o.maxItems).map((v) => format(v, o, depth + 1, seen));
      return `Set(${object.size}) ${wrap('{', items, '}')}`;
    }
    const custom = (object as { toString?: () => string }).toString;
    const proto = Object.getPrototypeOf(object) as object | null;
    const inherited =
      custom === Object.prototype.toString || custom === Function.prototype.toString;
    if (custom && !inherited && proto !== Object.prototype && proto) {
      return custom.call(object);
    }
    const keys = Object.keys(object);
    const items = keys
      .slice(0, o.maxItems)
      .map(
        (k) =>
          `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${format((object as Record<string, unknown>)[k], o, depth + 1, seen)}`,
      );
    if (keys.length > o.maxItems) items.push(`… ${keys.length - o.maxItems} more keys`);
    const name = proto && proto !== Object.prototype ? `${proto.constructor?.name ?? ''} ` : '';
    return `${name}${wrap('{', items, '}')}`;
  } finally {
    seen.delete(object);
  }
}

function formatTyped(array: ArrayLike<number | bigint>, o: Required<InspectOptions>): string {
  const name = (array as unknown as object).constructor.name;
  const shown = Math.min(array.length, o.maxItems);
  const items: string[] = [];
  for (let i = 0; i < shown; i++) items.push(String(array[i]));
  if (array.length > shown) items.push(`… ${array.length - shown} more items`);
  return `${name}(${array.length}) ${wrap('[', items, ']')}`;
}

function wrap(open: string, items: string[], close: string): string {
  if (items.length === 0) return `${open}${close}`;
  const oneLine = `${open} ${items.join(', ')} ${close}`;
  if (oneLine.length <= 80 && !oneLine.includes('\n')) return oneLine;
  return `${open}\n${items.map((i) => `  ${i.replace(/\n/g, '\n  ')}`).join(',\n')}\n${close}`;
}

/** Plain functions have Function.prototype (or an async/generator one) as prototype. */
function isCallableInstance(fn: unknown): boolean {
  const proto = Object.getPrototypeOf(fn) as object | null;
  if (proto === null || proto === Function.prototype) return false;
  return Object.getPrototypeOf(proto) !== Function.prototype;
}

function isClass(fn: unknown): boolean {
  return typeof fn === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(fn));
}
