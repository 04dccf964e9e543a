/**
 * PyTorch's tensor repr for Python cells, from the engine's formatter (src/engine/format.ts):
 * `tensor([[0.1000, 0.2000]], device='cuda:0', grad_fn=<AddBackward0>)`. The Python face differs
 * from the TypeScript one in three ways that PyTorch users see: devices are `cuda:N`, the engine's
 * int32 is shown as PyTorch's default integer type int64 (so, like int64 in PyTorch, it prints no
 * dtype), and comparison results are bool tensors printing `True`/`False`.
 */
import { formatValues, type Tensor } from '../../engine';

/** The engine's device name as PyTorch spells it: gpu:N → cuda:N. */
export function torchDeviceName(name: string): string {
  return name.startsWith('gpu:') ? `cuda:${name.slice(4)}` : name;
}

/** What `torch.set_printoptions` sets (torch/_settings.py); PyTorch's defaults until then. */
export interface PythonPrintOptions {
  precision: number;
  threshold: number;
  edgeItems: number;
  lineWidth: number;
  /** Absent: PyTorch's automatic choice of scientific notation. */
  sciMode?: boolean;
}

const printOptions: PythonPrintOptions = {
  precision: 4,
  threshold: 1000,
  edgeItems: 3,
  lineWidth: 80,
};

/**
 * `torch.set_printoptions(...)`: the given options replace the current ones (null or absent keeps
 * one), except `sciMode`, which is always set, as in PyTorch (null: automatic again).
 */
export function setPrintOptions(
  options: {
    precision?: number | null;
    threshold?: number | null;
    edgeItems?: number | null;
    lineWidth?: number | null;
    sciMode?: boolean | null;
  } = {},
): void {
  for (const key of ['precision', 'threshold', 'edgeItems', 'lineWidth'] as const) {
    const value = options[key];
    if (value === null || value === undefined) continue;
    if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
      throw new TypeError(`set_printoptions: ${key} must be a non-negative number, got ${value}`);
    }
    printOptions[key] = value;
  }
  const sci = options.sciMode;
  if (sci === null || sci === undefined) delete printOptions.sciMode;
  else printOptions.sciMode = Boolean(sci);
}

export async function formatForPython(t: Tensor, isBool: boolean): Promise<string> {
  const data = await t.data();
  const dtype = isBool ? 'int32' : t.dtype;
  // Formatted as on the cpu with no grad so that the suffixes below are PyTorch's own.
  let text = formatValues({ shape: t.shape, dtype, device: 'cpu' }, data, { ...printOptions });
  const dtypeSuffix = ', dtype=torch.int32)';
  if (dtype === 'int32' && text.endsWith(dtypeSuffix)) {
    text = text.slice(0, -dtypeSuffix.length) + ')';
  }
  if (isBool) {
    // PyTorch prints bools right-aligned in a width of five: `tensor([ True, False])`.
    text = text.replace(/(?<=[[\s(,])-?\d+(?=[,\]\s)])/g, (v) =>
      Number(v) !== 0 ? ' True' : 'False',
    );
    text = text.replace('tensor( True)', 'tensor(True)');
  }
  const suffixes: string[] = [];
  if (t.device !== 'cpu') suffixes.push(`device='${torchDeviceName(t.device)}'`);
  const gradFn = t.gradFn?.name ?? null;
  if (gradFn) suffixes.push(`grad_fn=<${gradFn}>`);
  else if (t.requiresGrad) suffixes.push('requires_grad=True');
  if (suffixes.length === 0) return text;
  return `${text.slice(0, -1)}, ${suffixes.join(', ')})`;
}
