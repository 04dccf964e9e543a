/**
 * "Benchmark this device": runs `benchmarkDevice()` (src/kernel/outputs/benchmark.ts) as a cell
 * on the timing panel's own kernel and keeps its progress line, its report and the report's
 * Markdown (the output's text) for the panel's table and its "copy as Markdown".
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { KernelListener } from '../../kernel/client';
import { BENCHMARK_MIME, type CellOutput, type DeviceBenchmarkReport } from '../../kernel/protocol';
import type { TimingKernel } from './useTimingRun';

export type BenchmarkStatus = 'idle' | 'running' | 'done' | 'error';

export interface DeviceBenchmark {
  status: BenchmarkStatus;
  /** The last progress line (`Timing matmul m=256 k=256 n=256 on gpu:0…`). */
  progress: string;
  report: DeviceBenchmarkReport | null;
  markdown: string | null;
  error: string | null;
  start(): void;
}

const CELL = 'device-benchmark';

/** The report of a benchmark output, if this output is one. */
function reportOf(output: CellOutput): { report: DeviceBenchmarkReport; markdown: string } | null {
  if (output.kind !== 'display') return null;
  const report = output.data[BENCHMARK_MIME] as DeviceBenchmarkReport | undefined;
  return report ? { report, markdown: output.data['text/plain'] } : null;
}

export function useDeviceBenchmark(kernel: TimingKernel | null): DeviceBenchmark {
  const [status, setStatus] = useState<BenchmarkStatus>('idle');
  const [progress, setProgress] = useState('');
  const [result, setResult] = useState<{ report: DeviceBenchmarkReport; markdown: string } | null>(
    null,
  );
  const [error, setError] = useState<string | null>(null);
  const generation = useRef(0);

  useEffect(() => {
    if (!kernel) return;
    const listener: KernelListener = {
      output: (cellId, outputs) => {
        if (cellId !== `${CELL}#${generation.current}`) return;
        for (const output of outputs) {
          const found = reportOf(output);
          if (found) setResult(found);
          else if (output.kind === 'stream')
            setProgress(output.text.trim().split('\n').pop() ?? '');
          else if (output.kind === 'error') setError(`${output.ename}: ${output.evalue}`);
        }
      },
    };
    const unsubscribe = kernel.subscribe(listener);
    const runs = generation; // the run counter, not a DOM node: bumping it ignores a stale run
    return () => {
      runs.current++;
      unsubscribe();
    };
  }, [kernel]);

  const start = useCallback(() => {
    if (!kernel || status === 'running') return;
    const run = ++generation.current;
    setStatus('running');
    setProgress('');
    setResult(null);
    setError(null);
    void kernel.execute(`${CELL}#${run}`, 'await benchmarkDevice();').then((outcome) => {
      if (generation.current !== run) return;
      setStatus(outcome === 'ok' ? 'done' : 'error');
      if (outcome !== 'ok') setError((e) => e ?? `the benchmark was ${outcome}`);
    });
  }, [kernel, status]);

  return {
    status,
    progress,
    report: result?.report ?? null,
    markdown: result?.markdown ?? null,
    error,
    start,
  };
}
