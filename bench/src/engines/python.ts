/**
 * The same training steps as ./ours.ts, written in Python as a PyTorch user writes them (and the
 * TF chapters' Keras step as ./keras.ts, as a TensorFlow user writes it) and run by Pyodide with
 * gpubook's `torch` and `tensorflow` packages over the same engine on the same WebGPU device: the gap
 * between this engine and `ours-webgpu` is what Python and the Python↔JavaScript crossings cost.
 * Pyodide comes from bench/public/pyodide (copied from node_modules by scripts/bench.mjs), never a
 * CDN; its first-load time is reported in each case's note.
 */
import type { PyodideAPI } from 'pyodide';
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
  await py.runPythonAsync(PROGRAM);
  await py.runPythonAsync(KERAS_PROGRAM);
  const firstLoadMs = performance.now() - started;
  const note = `Pyodide first load with our packages (files cached by the browser after the first run): ${firstLoadMs.toFixed(0)} ms`;
  // Each case keeps its callable in a Python global named after it; a repetition calls it through
  // runPythonAsync, so run_sync (JSPI) can wait for the loss read back, as in a notebook cell.
  const pythonCase =
    (name: string, make: string, extraArgs: number[] = []): CaseSetup =>
    async (params) => {
      const args = [...Object.values(params), ...extraArgs].join(', ');
      await py.runPythonAsync(`${name} = ${make}(${args})`);
      return {
        run: async () => {
          await py.runPythonAsync(`${name}()`);
        },
        cleanup: () => void py.runPython(`del ${name}`),
        note,
      };
    };
  return {
    'cnn-step': pythonCase('_cnn', 'cnn_step'),
    'linreg-step': pythonCase('_linreg', 'linreg_step'),
    'op-crossing': pythonCase('_ops', 'op_crossing'),
    'keras-text-step': pythonCase('_keras_text', 'keras_text_step', [
      KERAS_TEXT.words,
      KERAS_TEXT.length,
      KERAS_TEXT.classes,
    ]),
  };
}
