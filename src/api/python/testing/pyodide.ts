/**
 * Pyodide in Node with our packages over the real engine, for the Python face's tests: one
 * interpreter per test file (it loads in about two seconds). Cells run through `runPythonAsync`,
 * as an asyncio task like the kernel's cells, so `run_sync` (JSPI) can wait for GPU reads.
 */
import { loadPyodide, type PyodideAPI } from 'pyodide';
import { installPythonPackages } from '../install';

export interface TestPython {
  py: PyodideAPI;
  /** Runs Python and returns the value of its last expression, converted to JS. */
  run(code: string): Promise<unknown>;
  /** Runs Python and returns what it printed. */
  output(code: string): Promise<string>;
}

export async function startPython(globals: Record<string, unknown> = {}): Promise<TestPython> {
  let printed = '';
  const py = await loadPyodide({ stdout: (line) => (printed += `${line}\n`) });
  installPythonPackages(py, { globals });
  const run = async (code: string): Promise<unknown> => {
    const result: unknown = await py.runPythonAsync(code);
    if (result && typeof result === 'object' && 'toJs' in result) {
      const proxy = result as { toJs(o: object): unknown; destroy(): void };
      const value = proxy.toJs({ dict_converter: Object.fromEntries });
      proxy.destroy();
      return value;
    }
    return result;
  };
  const output = async (code: string): Promise<string> => {
    printed = '';
    await py.runPythonAsync(code);
    return printed;
  };
  return { py, run, output };
}
