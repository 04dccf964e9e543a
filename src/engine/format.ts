/**
 * Printing tensors the way PyTorch and TensorFlow do, e.g.
 * `tensor([[0.1234, 0.5678], …], device='gpu:0')` or `tf.Tensor([1. 2.], shape=(2,), dtype=float32)`,
 * with summarisation of large tensors. Formatting is synchronous over values already read.
 */
import type { DType, TypedArray } from './backend';
import type { Tensor } from './tensor';

export interface FormatOptions {
  style?: 'torch' | 'tf';
  /** Adds a line `shape: [2, 3], dtype: float32, device: gpu:0` below the values. */
  summary?: boolean;
  /** Digits after the point for floats (PyTorch: 4). */
  precision?: number;
  /** Scientific notation always (true) or never (false); absent: PyTorch's automatic choice. */
  sciMode?: boolean;
  /** Above this many elements only the edges are shown (PyTorch: 1000). */
  threshold?: number;
  edgeItems?: number;
  lineWidth?: number;
}

export interface TensorMeta {
  shape: readonly number[];
  dtype: DType;
  device: string;
  requiresGrad?: boolean;
  gradFn?: string | null;
}

type Cell = number | null; // null marks the '...' of a summarised dim

/** Values along each dim, with the middle replaced by null when summarising. */
function picks(size: number, summarize: boolean, edge: number): Cell[] {
  if (!summarize || size <= 2 * edge) return Array.from({ length: size }, (_, i) => i);
  return [
    ...Array.from({ length: edge }, (_, i) => i),
    null,
    ...Array.from({ length: edge }, (_, i) => size - edge + i),
  ];
}

function shownValues(
  shape: readonly number[],
  data: TypedArray,
  summarize: boolean,
  edge: number,
): number[] {
  const out: number[] = [];
  const walk = (dim: number, base: number): void => {
    if (dim === shape.length) {
      out.push(data[base]);
      return;
    }
    const inner = shape.slice(dim + 1).reduce((a, b) => a * b, 1);
    for (const i of picks(shape[dim], summarize, edge))
      if (i !== null) walk(dim + 1, base + i * inner);
  };
  walk(0, 0);
  return out;
}

/** PyTorch's _Formatter: integer mode, fixed or scientific, one width for all elements. */
function torchNumberFormatter(
  values: number[],
  dtype: DType,
  precision: number,
  sciMode?: boolean,
): ((v: number) => string) & { width?: number } {
  if (dtype === 'int32') return (v) => String(v);
  const finite = values.filter(Number.isFinite);
  const special = (v: number): string | null =>
    Number.isNaN(v) ? 'nan' : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : null;
  const intMode = finite.every((v) => Number.isInteger(v));
  const abs = finite.map(Math.abs).filter((v) => v > 0);
  const max = abs.length ? Math.max(...abs) : 0;
  const min = abs.length ? Math.min(...abs) : 0;
  let sci: boolean;
  // PyTorch: integers in float tensors go scientific on a spread over 1000 too, as other values.
  if (intMode) sci = max / min > 1000 || max > 1e8;
  else sci = abs.length > 0 && (max / min > 1000 || max > 1e8 || min < 1e-4);
  const format = (v: number, sci: boolean): string => {
    const s = special(v);
    if (s !== null) return s;
    if (sci) {
      const [mantissa, exponent] = v.toExponential(precision).split('e');
      const e = Number(exponent);
      return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
    }
    if (intMode) return `${v.toFixed(0)}.`;
    return v.toFixed(precision);
  };
  // PyTorch's set_printoptions(sci_mode=…) overrides the choice (its _Formatter's last line,
  // which a tensor with no nonzero finite value returns before) but keeps the width it measured
  // for its own choice over the nonzero finite values: each value is padded to that width.
  if (sciMode !== undefined && abs.length > 0 && sciMode !== sci) {
    const width = finite.reduce((w, v) => (v === 0 ? w : Math.max(w, format(v, sci).length)), 1);
    return Object.assign((v: number) => format(v, sciMode), { width });
  }
  return (v) => format(v, sci);
}

/** numpy's style (used by tf): shortest of up to 8 decimals, integers as `1.`. */
function numpyNumberFormatter(_values: number[], dtype: DType): (v: number) => string {
  if (dtype === 'int32') return (v) => String(v);
  return (v) => {
    if (Number.isNaN(v)) return 'nan';
    if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
    if (Number.isInteger(v) && Math.abs(v) < 1e16) return `${v}.`;
    const abs = Math.abs(v);
    if (abs !== 0 && (abs < 1e-4 || abs >= 1e16)) return v.toExponential(8).replace(/0+e/, 'e');
    return v.toFixed(8).replace(/0+$/, '');
  };
}

/** numpy aligns decimal points: integer parts pad left, fractions pad right. */
function decimalAligner(texts: string[]): (text: string) => string {
  const split = (t: string): [string, string] => {
    const at = t.indexOf('.');
    return at < 0 || t.includes('e') ? [t, ''] : [t.slice(0, at), t.slice(at)];
  };
  let intWidth = 0;
  let fracWidth = 0;
  for (const t of texts) {
    const [i, f] = split(t);
    intWidth = Math.max(intWidth, i.length);
    fracWidth = Math.max(fracWidth, f.length);
  }
  return (t) => {
    const [i, f] = split(t);
    return i.padStart(intWidth) + f.padEnd(fracWidth);
  };
}

function render(
  shape: readonly number[],
  data: TypedArray,
  format: (v: number) => string,
  width: number,
  opts: {
    summarize: boolean;
    edge: number;
    indent: number;
    lineWidth: number;
    sep: string;
    comma: boolean;
  },
): string {
  const inner = (dim: number): number => shape.slice(dim + 1).reduce((a, b) => a * b, 1);
  const cell = (v: number): string => format(v).padStart(width);
  const ellipsis = opts.comma ? ' ...' : '...';
  const walk = (dim: number, base: number, indent: number): string => {
    const items = picks(shape[dim], opts.summarize, opts.edge);
    if (dim === shape.length - 1) {
      const parts = items.map((i) => (i === null ? ellipsis : cell(data[base + i])));
      const perLine = Math.max(1, Math.floor((opts.lineWidth - indent) / (width + 2)));
      const lines: string[] = [];
      for (let i = 0; i < parts.length; i += perLine)
        lines.push(parts.slice(i, i + perLine).join(opts.sep));
      return `[${lines.join(`${opts.comma ? ',' : ''}\n${' '.repeat(indent + 1)}`)}]`;
    }
    const blankLines = '\n'.repeat(Math.max(1, shape.length - dim - 1));
    const children = items.map((i) =>
      i === null ? '...' : walk(dim + 1, base + i * inner(dim), indent + 1),
    );
    return `[${children.join(`${opts.comma ? ',' : ''}${blankLines}${' '.repeat(indent + 1)}`)}]`;
  };
  return walk(0, 0, opts.indent);
}

export function formatValues(
  meta: TensorMeta,
  data: TypedArray,
  options: FormatOptions = {},
): string {
  const style = options.style ?? 'torch';
  const threshold = options.threshold ?? 1000;
  const edge = options.edgeItems ?? 3;
  const numel = meta.shape.reduce((a, b) => a * b, 1);
  const summarize = numel > threshold;
  const values = shownValues(meta.shape, data, summarize, edge);
  let format: ((v: number) => string) & { width?: number } =
    style === 'tf'
      ? numpyNumberFormatter(values, meta.dtype)
      : torchNumberFormatter(values, meta.dtype, options.precision ?? 4, options.sciMode);
  if (style === 'tf' && meta.dtype === 'float32') {
    const base = format;
    const align = decimalAligner(values.map(base));
    format = (v) => align(base(v));
  }
  const width = format.width ?? values.reduce((w, v) => Math.max(w, format(v).length), 1);
  const lineWidth = options.lineWidth ?? 80;
  /** The values: a scalar bare, an empty tensor `[]`, else rows indented by `indent` after the first. */
  const valuesText = (indent: number, sep: string, comma: boolean): string =>
    meta.shape.length === 0
      ? format(data[0])
      : numel === 0
        ? '[]'
        : render(meta.shape, data, format, width, {
            summarize,
            edge,
            indent,
            lineWidth,
            sep,
            comma,
          });
  let text: string;
  if (style === 'tf') {
    const shapeText = `(${meta.shape.join(', ')}${meta.shape.length === 1 ? ',' : ''})`;
    const body = valuesText(0, ' ', false);
    const open = meta.shape.length > 1 ? 'tf.Tensor(\n' : 'tf.Tensor(';
    text = `${open}${body}, shape=${shapeText}, dtype=${meta.dtype})`;
  } else {
    const prefix = 'tensor(';
    const body = valuesText(prefix.length, ', ', true);
    const suffixes: string[] = [];
    if (numel === 0 && meta.shape.length !== 1) suffixes.push(`size=(${meta.shape.join(', ')})`);
    if (meta.device !== 'cpu') suffixes.push(`device='${meta.device}'`);
    if (meta.dtype !== 'float32') suffixes.push(`dtype=torch.${meta.dtype}`);
    if (meta.gradFn) suffixes.push(`grad_fn=<${meta.gradFn}>`);
    else if (meta.requiresGrad) suffixes.push('requires_grad=True');
    text = `${prefix}${body}${suffixes.map((s) => `, ${s}`).join('')})`;
  }
  if (options.summary) {
    text += `\nshape: [${meta.shape.join(', ')}], dtype: ${meta.dtype}, device: ${meta.device}`;
  }
  return text;
}

/** Reads a tensor's values (waiting for its device) and formats them. */
export async function formatTensor(t: Tensor, options: FormatOptions = {}): Promise<string> {
  const data = await t.data();
  return formatValues(
    {
      shape: t.shape,
      dtype: t.dtype,
      device: t.device,
      requiresGrad: t.requiresGrad,
      gradFn: t.gradFn?.name ?? null,
    },
    data,
    options,
  );
}
