/**
 * One Python cell in the kernel session: starts Python if this is the first Python cell, runs
 * the cell, and turns its result into the same outputs a TypeScript cell makes (stream text is
 * written while it runs; the value becomes `Out[n]`; an error carries Python's traceback).
 */
import type { OutputSink } from '../output-sink';
import type { ExecuteRequest, OutputMetadata } from '../protocol';
import type { PythonCellResult, PythonDisplayMessage, PythonKernel } from './python-kernel';

export type PythonCellStatus = 'ok' | 'error' | 'interrupted';

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function runPythonCell(
  kernel: () => Promise<PythonKernel>,
  request: ExecuteRequest,
  sink: OutputSink,
  /** Shows a JavaScript value the cell ended with (a chart, a table) as TypeScript cells do. */
  addJsResult: (value: unknown) => void,
): Promise<PythonCellStatus> {
  let python: PythonKernel;
  try {
    python = await kernel();
  } catch (error) {
    sink.add({
      kind: 'error',
      ename: 'PythonUnavailable',
      evalue: `Python could not start in this browser: ${message(error)}`,
      traceback: [],
    });
    return 'error';
  }
  let result;
  try {
    result = await python.run(request.code, request.executionCount);
  } catch (error) {
    // Only a failure of the interpreter itself gets here; Python exceptions come back as data.
    sink.add({
      kind: 'error',
      ename: 'PythonKernelError',
      evalue: `${message(error)} (restart the kernel if Python stops answering)`,
      traceback: [],
    });
    return 'error';
  }
  try {
    return addResult(result, request, sink, addJsResult);
  } finally {
    // Jupyter's order: Out[n] or the traceback, then the figures the cell left open.
    python.finishCell();
  }
}

function addResult(
  result: PythonCellResult,
  request: ExecuteRequest,
  sink: OutputSink,
  addJsResult: (value: unknown) => void,
): PythonCellStatus {
  if (result.status !== 'ok') {
    const { ename, evalue, traceback } = result;
    sink.add({ kind: 'error', ename, evalue, traceback });
    return result.status;
  }
  if (result.bundle !== undefined) {
    const { data, metadata } = JSON.parse(result.bundle) as PythonDisplayMessage;
    sink.add({
      kind: 'result',
      executionCount: request.executionCount,
      data,
      ...withMetadata(metadata),
    });
  } else if (result.repr !== undefined) {
    const executionCount = request.executionCount;
    sink.add({ kind: 'result', executionCount, data: { 'text/plain': result.repr } });
  } else if (result.js !== undefined) {
    addJsResult(result.js);
  }
  return 'ok';
}

function withMetadata(metadata: OutputMetadata | undefined): { metadata?: OutputMetadata } {
  return metadata && Object.keys(metadata).length > 0 ? { metadata } : {};
}

/** A bundle `IPython.display` published: a new display output, or an update of one. */
export function showPythonDisplay(sink: OutputSink, message: PythonDisplayMessage): void {
  const { data, metadata, displayId, update } = message;
  if (update && displayId !== null) {
    sink.updateDisplay(displayId, data);
    return;
  }
  sink.add(
    {
      kind: 'display',
      data,
      ...(displayId !== null ? { displayId } : {}),
      ...withMetadata(metadata),
    },
    displayId ?? undefined,
  );
}
