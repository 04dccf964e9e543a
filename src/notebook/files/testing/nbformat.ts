/**
 * Jupyter's own check of a saved notebook, for tests: `nbformat.validate` in Debian's CPython
 * (`python3-nbformat`, which `scripts/ensure-deps.mjs` installs with the other test peers).
 * Test-only; used by unit tests and by the end-to-end chapter runs.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./validate_nbformat.py', import.meta.url));

/** Null when nbformat can be imported, otherwise why not (the skip message). */
export function nbformatMissing(): string | null {
  const probe = spawnSync(PYTHON, ['-c', 'import nbformat'], { encoding: 'utf8' });
  return probe.status === 0
    ? null
    : `Jupyter's validator is not available (${PYTHON} -c "import nbformat" failed): install python3-nbformat`;
}

/**
 * Runs `nbformat.validate(nbformat.reads(text, 4))`: null when the notebook is valid, otherwise
 * what the validator said (the innermost schema errors, path: message).
 */
export function nbformatErrors(ipynbText: string): string | null {
  const result = spawnSync(PYTHON, [SCRIPT], {
    input: ipynbText,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status === 0) return null;
  return (result.stderr || result.stdout || `python3 exited with ${result.status}`).trim();
}
