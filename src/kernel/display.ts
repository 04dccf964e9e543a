/**
 * How values become outputs: the text `print` writes, and the MIME bundle `display` and a cell's
 * last value show. Both are registries, so tensors, charts, images and progress bars plug in with
 * one registration each; either may answer asynchronously (a tensor's values live on the GPU).
 */
import { inspect } from './inspect';
import { TABLE_MIME, type MimeBundle, type TableData } from './protocol';

type Awaitable<T> = T | Promise<T>;

/** Returns the text for a value it knows, or null to let the next formatter try. */
export type TextFormatter = (value: unknown) => Awaitable<string> | null;
/** Returns a MIME bundle for a value it knows, or null to let the next converter try. */
export type DisplayConverter = (value: unknown) => Awaitable<MimeBundle> | null;

const textFormatters: TextFormatter[] = [];
const displayConverters: DisplayConverter[] = [];

export function registerTextFormatter(formatter: TextFormatter): void {
  textFormatters.unshift(formatter);
}

export function registerDisplayConverter(converter: DisplayConverter): void {
  displayConverters.unshift(converter);
}

/** Text of one value as `print` shows it: strings raw, everything else inspected. */
export function formatText(value: unknown): Awaitable<string> {
  for (const formatter of textFormatters) {
    const text = formatter(value);
    if (text !== null) return text;
  }
  return inspect(value, { rawStrings: true });
}

/** `print(a, b, c)`: values joined by spaces, one line. */
export function formatPrint(values: unknown[]): Awaitable<string> {
  const parts = values.map(formatText);
  if (parts.every((p) => typeof p === 'string')) return `${(parts as string[]).join(' ')}\n`;
  return Promise.all(parts).then((texts) => `${texts.join(' ')}\n`);
}

export function toMimeBundle(value: unknown): Awaitable<MimeBundle> {
  for (const converter of displayConverters) {
    const bundle = converter(value);
    if (bundle !== null) return bundle;
  }
  const table = asTable(value);
  if (table) return { 'text/plain': tableText(table), [TABLE_MIME]: table };
  const text = formatText(value);
  const quoted = typeof value === 'string' ? inspect(value) : null;
  if (quoted !== null) return { 'text/plain': quoted };
  return typeof text === 'string'
    ? { 'text/plain': text }
    : text.then((t) => ({ 'text/plain': t }));
}

/** An array of plain records (at least one) becomes a table, columns in first-seen order. */
export function asTable(value: unknown): TableData | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const row of value) {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) return null;
    const proto = Object.getPrototypeOf(row) as object | null;
    if (proto !== Object.prototype && proto !== null) return null;
    for (const key of Object.keys(row)) {
      if (!seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
    }
  }
  const rows = value.map((row: Record<string, unknown>) => columns.map((c) => toCell(row[c])));
  return { columns, rows };
}

function toCell(value: unknown): unknown {
  if (value === null || ['number', 'string', 'boolean'].includes(typeof value)) return value;
  return value === undefined ? '' : inspect(value, { maxDepth: 1 });
}

/**
 * A plain-text rendering of a table as pandas prints a DataFrame: a row index on the left,
 * columns right-aligned, numbers to 4 significant digits.
 */
export function tableText(table: TableData): string {
  const header = ['', ...table.columns];
  const body = table.rows.map((r, i) => [String(i), ...r.map((c) => cellText(c))]);
  const cells = [header, ...body];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => String(r[i] ?? '').length)));
  return cells
    .map((row) => row.map((c, i) => String(c ?? '').padStart(widths[i])).join('  '))
    .join('\n');
}

/** A table cell as text: floats to 4 significant digits, integers whole. */
export function cellText(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value)) {
    return String(Number(value.toPrecision(4)));
  }
  return String(value ?? '');
}
