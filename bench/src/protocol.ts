/** Messages between the benchmark page and its per-engine workers. */

export type EngineName =
  | 'peak-fma'
  | 'ours-webgpu'
  | 'ours-python'
  | 'ours-cpu'
  | 'tfjs-webgpu'
  /** jax-js 0.1.25 on its WebGPU device, jitted (engines/jaxjs.ts). */
  | 'jaxjs-webgpu'
  | 'tfjs-wasm'
  | 'tfjs-cpu'
  /** Notebook cells in the real kernel, TypeScript and Python (engines/cells.ts). */
  | 'cell-ts'
  | 'cell-python';

export interface CaseRequest {
  name: string;
  /** Floating-point operations of one repetition, for GFLOPS; 0 when not meaningful. */
  flops: number;
  params: Record<string, number>;
  warmup: number;
  repeats: number;
  /** Stop repeating once this many milliseconds were spent (slow engines on big shapes). */
  budgetMs: number;
  /**
   * Runs in a worker of its own, started at its turn and closed after it (the engine's shared
   * worker keeps the rest): for a case that restarts the engine, and for an engine that should
   * find in IndexedDB what ours-webgpu's tuner chose for the same case (bench/src/main.ts).
   */
  ownWorker?: boolean;
  /** Takes its turn with this case of the same sizes (by default its own name's). */
  turnWith?: string;
}

export interface CaseResult {
  name: string;
  engine: EngineName;
  params: Record<string, number>;
  flops: number;
  /** Seconds per repetition, one entry per timed repetition. */
  seconds: number[];
  /** Cell engines: every run the time cell timed, its warm-ups first (engines/cells.ts). */
  runs?: number[];
  error?: string;
  note?: string;
  /** The FMA peak kernel's seconds timed beside this case (adjacent-peak.ts), and its flops. */
  peakSeconds?: number[];
  peakFlops?: number;
}

export type BenchRequest = { engine: EngineName; cases: CaseRequest[] };
export type BenchEvent =
  | { type: 'adapter'; description: string }
  | { type: 'result'; result: CaseResult }
  /** The autotuner's choice per shape class: matmul variants and reduce/softmax row modes. */
  | { type: 'tuning'; entries: [string, string][] }
  | { type: 'done' };
