/**
 * A fixture program run under our `torch` and under real PyTorch (testing/*_program.py): the test
 * hands both the same INPUT (as JSON) and reads back the RESULT the program leaves.
 */
import type { PyProxy } from 'pyodide/ffi';
import { describe, expect, it } from 'vitest';
import type { TestPython } from './pyodide';
import { realTorchMissing, runRealTorch } from './real-torch';

/** Runs `program` under our torch in the test's Python, on `device`; returns its RESULT. */
export async function runOurs<T>(
  python: TestPython,
  program: string,
  input: unknown,
  device: string,
): Promise<T> {
  const { py } = python;
  const json = py.pyimport('json') as PyProxy & { loads(text: string): PyProxy };
  const parsed = json.loads(JSON.stringify(input));
  py.globals.set('INPUT', parsed);
  parsed.destroy();
  json.destroy();
  py.globals.set('DEVICE', device);
  await python.run(program);
  const result = py.globals.get('RESULT') as PyProxy;
  try {
    return result.toJs({ dict_converter: Object.fromEntries }) as T;
  } finally {
    result.destroy();
  }
}

/** Runs `program` under real PyTorch (on its CPU); returns its RESULT. */
export function runTheirs<T>(program: string, input: unknown): T {
  return runRealTorch(program, input, 'RESULT') as T;
}

/** Element-wise agreement, relative to each value's magnitude (absolute below 1). */
export function expectNear(ours: number[], theirs: number[], tol: number, what: string): void {
  expect(ours.length, what).toBe(theirs.length);
  ours.forEach((v, i) => {
    const err = Math.abs(v - theirs[i]) / Math.max(1, Math.abs(theirs[i]));
    expect(err, `${what}[${i}]: ${v} vs ${theirs[i]}`).toBeLessThanOrEqual(tol);
  });
}

/**
 * A suite that runs `program` under real PyTorch once and under ours on each device, and hands
 * both RESULTs to `check`; skipped, saying why, where real PyTorch is missing.
 */
export function describeAgainstRealTorch<T>(
  file: string,
  title: string,
  test: string,
  run: { python: TestPython; program: string; input: unknown; devices: readonly string[] },
  check: (ours: T, theirs: T) => void,
): void {
  const missing = realTorchMissing();
  if (missing !== null) console.warn(`${file} skipped: ${missing}`);
  (missing === null ? describe : describe.skip)(title, () => {
    const theirs = missing === null ? runTheirs<T>(run.program, run.input) : null;
    it.each(run.devices)(test, async (device) => {
      check(await runOurs<T>(run.python, run.program, run.input, device), theirs as T);
    });
  });
}
