/**
 * Keras and TensorFlow against their documented formulas. There is no TensorFlow package here, so
 * each test pairs two programs: `ours` runs under our `tensorflow` in Pyodide (on each test
 * device, given INPUT and DEVICE, TensorFlow's device name), and `reference` is a float64 NumPy
 * implementation of the same items written from Keras's and TensorFlow's documentation and
 * sources, run under Debian's CPython (`/usr/bin/python3`, python3-numpy) from the same INPUT (the
 * weights, set with `set_weights`, and the data). Both leave a RESULT that `check` compares.
 */
import { spawnSync } from 'node:child_process';
import { describe, it } from 'vitest';
import RUNNER from './formula_runner.py?raw';
import { runOurs } from './peer-program';
import type { TestPython } from './pyodide';

const PYTHON = '/usr/bin/python3';

/** Null when CPython with NumPy can run here, otherwise why not (the skip message). */
export function numpyReferenceMissing(): string | null {
  const probe = spawnSync(PYTHON, ['-c', RUNNER], { encoding: 'utf8' });
  if (probe.status === 0) return null;
  return `the float64 reference needs ${PYTHON} with NumPy (${(probe.stderr || String(probe.error))
    .trim()
    .split('\n')
    .pop()}); install it with \`apt-get install -y python3-numpy\``;
}

/** Runs the float64 `reference` program on `input`; returns its RESULT. */
export function runReference<T>(reference: string, input: unknown): T {
  const result = spawnSync(PYTHON, ['-c', RUNNER, reference], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    env: { ...process.env, OMP_NUM_THREADS: '1' },
  });
  if (result.status !== 0) throw new Error(`the float64 reference failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop() ?? 'null') as T;
}

/**
 * A suite that runs `reference` once and `ours` on each device (TensorFlow names: '/cpu:0',
 * '/gpu:0'), handing both RESULTs to `check`; skipped, saying why, where NumPy is missing.
 */
export function describeAgainstFormulas<Ours, Reference = Ours>(
  file: string,
  title: string,
  test: string,
  run: {
    python: TestPython;
    ours: string;
    reference: string;
    input: unknown;
    devices: readonly string[];
  },
  check: (ours: Ours, reference: Reference) => void,
): void {
  const missing = numpyReferenceMissing();
  if (missing !== null) console.warn(`${file} skipped: ${missing}`);
  (missing === null ? describe : describe.skip)(title, () => {
    const reference = missing === null ? runReference<Reference>(run.reference, run.input) : null;
    it.each(run.devices)(test, async (device) => {
      check(await runOurs<Ours>(run.python, run.ours, run.input, device), reference as Reference);
    });
  });
}
