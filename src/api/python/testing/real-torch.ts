/**
 * Real PyTorch as a peer in tests: Debian's `python3-torch` (1.13, CPU) at /usr/bin/python3.
 * A script reads its inputs (weights, data) as JSON from stdin and prints one JSON value; tests
 * compare it with what our Python face computes on the same inputs. The script runs under
 * ./real_torch_runner.py, which gives it `json`, `sys`, `torch` and `INPUT`.
 */
import { spawnSync } from 'node:child_process';
import RUNNER from './real_torch_runner.py?raw';

const PYTHON = '/usr/bin/python3';

/** Null when real PyTorch can run here, otherwise why not (the skip message). */
export function realTorchMissing(): string | null {
  // With no script, the runner imports torch and prints its version.
  const probe = spawnSync(PYTHON, ['-c', RUNNER], { encoding: 'utf8' });
  if (probe.status === 0) return null;
  return (
    `real PyTorch is not available (${PYTHON} could not import torch: ` +
    `${(probe.stderr || String(probe.error)).trim().split('\n').pop()}); ` +
    'install it with `apt-get install -y python3-torch`'
  );
}

/**
 * Runs `script` under real PyTorch with `input` as JSON on stdin; returns its printed JSON, or with
 * `resultName` the global the script leaves under that name.
 */
export function runRealTorch(script: string, input: unknown = null, resultName?: string): unknown {
  const result = spawnSync(PYTHON, ['-c', RUNNER, script, ...(resultName ? [resultName] : [])], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    env: { ...process.env, OMP_NUM_THREADS: '1' },
  });
  if (result.status !== 0) throw new Error(`real PyTorch failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop() ?? 'null');
}
