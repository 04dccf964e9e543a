/**
 * The same training steps as ./ours.ts, written in Python as a PyTorch user writes them (and the
 * TF chapters' Keras step as ./keras.ts, as a TensorFlow user writes it) and run by Pyodide with
 * gpubook's `torch` and `tensorflow` packages over the same engine on the same WebGPU device: the gap
 * between this engine and `ours-webgpu` is what Python and the Python↔JavaScript crossings cost.
 * Pyodide comes from bench/public/pyodide (copied from node_modules by scripts/bench.mjs), never a
 * CDN; its first-load time is reported in each case's note.
 */
import type { PyodideAPI } from 'pyodide';
import type { PyCallable, PyProxy } from 'pyodide/ffi';
import { installPythonPackages } from '../../../src/api/python/install';
import { tf } from '../../../src/api/tf';
import type { CaseSetup } from '../timing';
import { KERAS_TEXT } from './keras';
import { openDevice } from './ours';
// The steps as a PyTorch program (the nets and sizes of ./ours.ts).
import PROGRAM from './python_steps.py?raw';
// The TF chapters' GradientTape step as the book writes it in Python (./keras.ts in TypeScript).
import KERAS_PROGRAM from './keras_text_step.py?raw';

type LoadPyodide = (options: { indexURL: string }) => Promise<PyodideAPI>;

/** Where the bench's own modules go in Pyodide's file system (on `sys.path`, after our packages). */
const BENCH_SITE = '/lib/gpubook_bench';

export interface StepModules {
  python_steps: PyProxy &
    Record<
      'cnn_step' | 'linreg_step' | 'op_crossing' | 'lstm_step' | 'transformer_step',
      PyCallable
    >;
  keras_text_step: PyProxy & Record<'keras_text_step', PyCallable>;
}

/**
 * Writes ./python_steps.py and ./keras_text_step.py into Pyodide's file system and imports them.
 * The imports go through `callPromising`, as every call here does, so that anything that reads
 * the GPU may block in `run_sync` (JSPI) as it would in a notebook cell.
 */
export async function importSteps(py: PyodideAPI): Promise<StepModules> {
  py.FS.mkdirTree(BENCH_SITE);
  py.FS.writeFile(`${BENCH_SITE}/python_steps.py`, PROGRAM);
  py.FS.writeFile(`${BENCH_SITE}/keras_text_step.py`, KERAS_PROGRAM);
  const sys = py.pyimport('sys') as PyProxy & { path: PyProxy & { append(entry: string): void } };
  const sysPath = sys.path;
  sysPath.append(BENCH_SITE);
  sysPath.destroy();
  sys.destroy();
  const importlib = py.pyimport('importlib') as PyProxy & { import_module: PyCallable };
  const importModule = importlib.import_module;
  const modules = {
    python_steps: (await importModule.callPromising('python_steps')) as StepModules['python_steps'],
    keras_text_step: (await importModule.callPromising(
      'keras_text_step',
    )) as StepModules['keras_text_step'],
  };
  importModule.destroy();
  importlib.destroy();
  return modules;
}

/**
 * The Python cases over a Pyodide that has our packages: each builds its step by calling the
 * module's function (`cnn_step(128)`, …) and a repetition calls the step, both through
 * `callPromising`, so `run_sync` (JSPI) can wait for the loss read back, as in a notebook cell.
 * The cleanup drops the step (the Python side frees its tensors when nothing else holds them).
 */
export function stepCases(
  py: PyodideAPI,
  { python_steps: steps, keras_text_step: keras }: StepModules,
  note: string,
): Record<string, CaseSetup> {
  const pythonCase =
    (make: PyCallable, extraArgs: number[] = []): CaseSetup =>
    async (params) => {
      const args = [...Object.values(params), ...extraArgs];
      const step = (await make.callPromising(...args)) as PyCallable;
      return {
        run: async () => {
          // The loss, as a number (or a proxy of what the step returns, which is let go).
          const loss: unknown = await step.callPromising();
          if (loss instanceof py.ffi.PyProxy) loss.destroy();
        },
        cleanup: () => step.destroy(),
        note,
      };
    };
  return {
    'cnn-step': pythonCase(steps.cnn_step),
    'linreg-step': pythonCase(steps.linreg_step),
    'op-crossing': pythonCase(steps.op_crossing),
    'lstm-step': pythonCase(steps.lstm_step),
    'transformer-step': pythonCase(steps.transformer_step),
    'keras-text-step': pythonCase(keras.keras_text_step, [
      KERAS_TEXT.words,
      KERAS_TEXT.length,
      KERAS_TEXT.classes,
    ]),
  };
}

export async function pythonCases(): Promise<Record<string, CaseSetup>> {
  await openDevice('webgpu');
  // The bench page is served at its origin's root; this worker's own URL is under assets/.
  const indexURL = new URL('/pyodide/', self.location.origin).href;
  const started = performance.now();
  const loader = (await import(/* @vite-ignore */ `${indexURL}pyodide.mjs`)) as {
    loadPyodide: LoadPyodide;
  };
  const py = await loader.loadPyodide({ indexURL });
  // The tensorflow package reaches the TS tf layer as the kernel's cell globals give it.
  installPythonPackages(py, { globals: { tf } });
  const modules = await importSteps(py);
  const firstLoadMs = performance.now() - started;
  const note = `Pyodide first load with our packages (files cached by the browser after the first run): ${firstLoadMs.toFixed(0)} ms`;
  return stepCases(py, modules, note);
}
