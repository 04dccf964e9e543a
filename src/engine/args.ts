/**
 * The calling convention of the cell API: a function's Python positional parameters may be passed
 * positionally, and any parameter by name (camelCased) in one options object as the last argument.
 * `bindArgs` turns either form into one record, with Python's error messages for misuse.
 */

export interface Signature {
  /** Shown in errors, e.g. 'torch.rand' or 'Tensor.sum'. */
  readonly name: string;
  /** Positional-or-keyword parameters in Python order. */
  readonly params: readonly string[];
  /** Parameters that may only be given by name. */
  readonly keywordOnly?: readonly string[];
  /** A `*args` parameter that collects the remaining positional arguments (e.g. `*size`). */
  readonly rest?: string;
  /**
   * Parameters that accept plain objects themselves (e.g. a state dict). A trailing plain object
   * then counts as options only when all its keys are parameter names.
   */
  readonly objectParams?: readonly string[];
}

export type BoundArgs = Record<string, unknown>;

/** A plain `{ ... }` object: the only thing taken as an options object. */
export function isOptionsObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

export function bindArgs(sig: Signature, args: readonly unknown[]): BoundArgs {
  const names = new Set([
    ...sig.params,
    ...(sig.keywordOnly ?? []),
    ...(sig.rest ? [sig.rest] : []),
  ]);
  let positional = args;
  let options: Record<string, unknown> | null = null;
  // Trailing undefineds are what JS passes for omitted arguments; they are not arguments.
  while (positional.length > 0 && positional[positional.length - 1] === undefined) {
    positional = positional.slice(0, -1);
  }
  const last = positional[positional.length - 1];
  if (isOptionsObject(last)) {
    const keys = Object.keys(last);
    const takesObjects = (sig.objectParams ?? []).length > 0;
    if (!takesObjects || keys.every((k) => names.has(k))) {
      options = last;
      positional = positional.slice(0, -1);
    }
  }
  const bound: BoundArgs = {};
  const restValues: unknown[] = [];
  positional.forEach((value, i) => {
    if (i < sig.params.length) bound[sig.params[i]] = value;
    else if (sig.rest) restValues.push(value);
    else {
      throw new TypeError(
        `${sig.name}() takes ${sig.params.length} positional argument${sig.params.length === 1 ? '' : 's'} ` +
          `but ${positional.length} were given`,
      );
    }
  });
  if (sig.rest && restValues.length > 0) bound[sig.rest] = restValues;
  if (options) {
    for (const [key, value] of Object.entries(options)) {
      if (!names.has(key)) {
        const valid = [...names].join(', ');
        throw new TypeError(
          `${sig.name}() got an unexpected keyword argument '${key}' (it takes: ${valid || 'none'})`,
        );
      }
      if (value === undefined) continue;
      if (key in bound && bound[key] !== undefined) {
        throw new TypeError(`${sig.name}() got multiple values for argument '${key}'`);
      }
      bound[key] = value;
    }
  }
  return bound;
}

// ---------------------------------------------------------------------------------------------
// Coercions shared by API functions.

export function asInt(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`${what} must be an integer, got ${describe(value)}`);
  }
  return value;
}

export function asNumber(value: unknown, what: string): number {
  if (typeof value !== 'number')
    throw new TypeError(`${what} must be a number, got ${describe(value)}`);
  return value;
}

export function asBool(value: unknown, what: string): boolean {
  if (typeof value !== 'boolean')
    throw new TypeError(`${what} must be true or false, got ${describe(value)}`);
  return value;
}

export function optional<T>(
  value: unknown,
  coerce: (v: unknown, what: string) => T,
  what: string,
  fallback: T,
): T {
  return value === undefined || value === null ? fallback : coerce(value, what);
}

/** An int or a list of ints (dims of a reduction). */
export function asDims(value: unknown, what: string): number | number[] {
  if (Array.isArray(value)) return value.map((v, i) => asInt(v, `${what}[${i}]`));
  return asInt(value, what);
}

/**
 * A size given as one list (`[2, 3]`), as separate numbers (`2, 3`, collected by a rest
 * parameter), or as a single number.
 */
export function asShape(value: unknown, what: string): number[] {
  let list: unknown = value;
  if (Array.isArray(value) && value.length === 1 && Array.isArray(value[0])) list = value[0];
  if (typeof list === 'number') list = [list];
  if (ArrayBuffer.isView(list)) list = Array.from(list as unknown as ArrayLike<number>);
  if (!Array.isArray(list))
    throw new TypeError(`${what} must be a list of sizes, got ${describe(value)}`);
  return list.map((v, i) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < -1) {
      throw new TypeError(`${what}[${i}] must be a non-negative integer, got ${describe(v)}`);
    }
    return v;
  });
}

/** An int or a pair of ints (kernel sizes, strides, paddings). */
export function asPair(value: unknown, what: string): [number, number] {
  if (Array.isArray(value) && value.length === 2)
    return [asInt(value[0], what), asInt(value[1], what)];
  const v = asInt(value, what);
  return [v, v];
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (typeof value === 'object')
    return `an object (${(value as object).constructor?.name ?? 'Object'})`;
  if (typeof value === 'string') return JSON.stringify(value);
  return String(value);
}
