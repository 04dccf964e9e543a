/**
 * The names every cell sees besides the cell API: `print`, `display`, `console`, `params`, and
 * the rich outputs of ./outputs (charts, progress bars, images, timing, profiles, the device
 * benchmark), and `loadText` (a bundled plain text, for character-level models).
 * Output goes to whichever cell is running when the call happens.
 */
import { getAssetReader, loadPlainText } from '../engine/data/datasets';
import { formatPrint, formatText } from './display';
import type { OutputSink } from './output-sink';
import { createBenchmarkGlobal } from './outputs/benchmark';
import { reportPrinted } from './outputs/auto-chart';
import { createOutputGlobals } from './outputs/globals';
import type { CellOutput, StreamName } from './protocol';

export interface OutputTarget {
  /** The running cell's sink, or null between cells. */
  current(): OutputSink | null;
}

export function createIoGlobals(
  target: OutputTarget,
  params: Record<string, string>,
): Record<string, unknown> {
  const write = (name: StreamName, values: unknown[]) => {
    const sink = target.current();
    if (!sink) return;
    const text = formatPrint(values);
    sink.add(
      typeof text === 'string'
        ? { kind: 'stream', name, text }
        : text.then((t): CellOutput => ({ kind: 'stream', name, text: t })),
    );
  };

  const print = (...values: unknown[]): void => {
    write('stdout', values);
    if (values.length === 1) reportPrinted(values[0]);
  };

  const outputs = createOutputGlobals(target);
  const display = outputs.display as (value: unknown, options?: unknown) => unknown;

  const console = {
    log: print,
    info: print,
    debug: print,
    warn: (...values: unknown[]) => write('stderr', values),
    error: (...values: unknown[]) => write('stderr', values),
    table: (value: unknown) => void display(value),
    dir: (value: unknown) => write('stdout', [formatText(value)]),
  };

  return {
    ...outputs,
    benchmarkDevice: createBenchmarkGlobal(target),
    print,
    display,
    console,
    params: Object.freeze({ ...params }),
    /** `await loadText('sotu')`: a bundled plain text as one string (docs/datasets.md). */
    loadText: (name: string): Promise<string> => loadPlainText(getAssetReader(), String(name)),
  };
}
