/**
 * Runs the timing panel's benchmarks on a kernel of its own (a second worker, so the notebook's
 * variables and execution counts stay untouched), collecting each benchmark's outputs as they
 * stream in and applying live display updates.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { KernelClient, KernelListener } from '../../kernel/client';
import type { CellOutput, KernelInfo } from '../../kernel/protocol';
import { isEmulatedAdapter } from '../../kernel/outputs/emulated-adapter';
import { benchmarks, GPU_SIZES, SMALL_SIZES, type Benchmark } from './benchmarks';

/** The part of KernelClient the panel uses. */
export type TimingKernel = Pick<KernelClient, 'subscribe' | 'start' | 'execute' | 'dispose'>;

export type RunStatus = 'waiting' | 'running' | 'done' | 'error';

export interface BenchmarkRun {
  benchmark: Benchmark;
  status: RunStatus;
  outputs: CellOutput[];
}

export interface TimingRun {
  /** The panel's own kernel while the panel is open (the device benchmark runs on it too). */
  kernel: TimingKernel | null;
  info: KernelInfo | null;
  ready: boolean;
  running: boolean;
  runs: BenchmarkRun[];
  start(): void;
}

function sizesFor(info: KernelInfo) {
  const emulated = info.backend !== 'webgpu' || isEmulatedAdapter(info.adapter ?? '');
  return emulated ? SMALL_SIZES : GPU_SIZES;
}

export function useTimingRun(createKernel: () => TimingKernel, autoStart: boolean): TimingRun {
  const [info, setInfo] = useState<KernelInfo | null>(null);
  const [runs, setRuns] = useState<BenchmarkRun[]>([]);
  const [running, setRunning] = useState(false);
  const kernel = useRef<TimingKernel | null>(null);
  const [client, setClient] = useState<TimingKernel | null>(null);
  const generation = useRef(0);
  const started = useRef(false);

  useEffect(() => {
    const client = createKernel();
    kernel.current = client;
    const runs = generation; // the run counter, not a DOM node: bumping it stops a running loop
    // Cell ids carry the run's generation: a stale run's late outputs match no benchmark.
    const matches = (r: BenchmarkRun, cellId: string) =>
      cellId === `${r.benchmark.id}#${generation.current}`;
    const listener: KernelListener = {
      state: (_state, next) => {
        if (next) setInfo(next);
        // Offered to the panel's other users (the device benchmark) once it has started.
        setClient(client);
      },
      output: (cellId, outputs) =>
        setRuns((list) =>
          list.map((r) => (matches(r, cellId) ? { ...r, outputs: [...r.outputs, ...outputs] } : r)),
        ),
      updateDisplay: (cellId, displayId, data) =>
        setRuns((list) =>
          list.map((r) =>
            matches(r, cellId)
              ? {
                  ...r,
                  outputs: r.outputs.map((o) =>
                    o.kind === 'display' && o.displayId === displayId ? { ...o, data } : o,
                  ),
                }
              : r,
          ),
        ),
    };
    const unsubscribe = client.subscribe(listener);
    client.start();
    return () => {
      runs.current++;
      unsubscribe();
      client.dispose();
      kernel.current = null;
    };
  }, [createKernel]);

  const start = useCallback(() => {
    const client = kernel.current;
    if (!client || !info || running) return;
    const list = benchmarks(sizesFor(info));
    const runGeneration = ++generation.current;
    setRuns(list.map((benchmark) => ({ benchmark, status: 'waiting', outputs: [] })));
    setRunning(true);
    const setStatus = (id: string, status: RunStatus) =>
      setRuns((all) => all.map((r) => (r.benchmark.id === id ? { ...r, status } : r)));
    void (async () => {
      for (const benchmark of list) {
        if (generation.current !== runGeneration) return;
        setStatus(benchmark.id, 'running');
        const result = await client.execute(`${benchmark.id}#${runGeneration}`, benchmark.code);
        if (generation.current !== runGeneration) return;
        setStatus(benchmark.id, result === 'ok' ? 'done' : 'error');
      }
      setRunning(false);
    })();
  }, [info, running]);

  useEffect(() => {
    if (autoStart && info && !started.current) {
      started.current = true;
      start();
    }
  }, [autoStart, info, start]);

  return { kernel: client, info, ready: info !== null, running, runs, start };
}
