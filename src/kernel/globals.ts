/**
 * The names every cell sees besides the cell API: `print`, `display`, `console`, `params`.
 * Output goes to whichever cell is running when the call happens.
 */
import { formatPrint, formatText, toMimeBundle } from './display';
import type { OutputSink } from './output-sink';
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

  const print = (...values: unknown[]): void => write('stdout', values);

  const display = (value: unknown): void => {
    const sink = target.current();
    if (!sink) return;
    const bundle = toMimeBundle(value);
    sink.add(
      bundle instanceof Promise
        ? bundle.then((data): CellOutput => ({ kind: 'display', data }))
        : { kind: 'display', data: bundle },
    );
  };

  const console = {
    log: print,
    info: print,
    debug: print,
    warn: (...values: unknown[]) => write('stderr', values),
    error: (...values: unknown[]) => write('stderr', values),
    table: display,
    dir: (value: unknown) => write('stdout', [formatText(value)]),
  };

  return { print, display, console, params: Object.freeze({ ...params }) };
}
