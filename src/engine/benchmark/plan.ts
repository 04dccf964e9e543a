/**
 * What a device benchmark runs: the sizes of `npm run bench` (bench/src/cases.ts uses the same
 * lists), and smaller ones for CPU emulations of a GPU, where the full sizes take minutes.
 */
import { BENCH_RULES, type CaseTiming, type TimingRules } from './timing';

export interface StepCase {
  name: 'cnn-step' | 'text-step' | 'linreg-step';
  /** The batch (cnn, text) or the number of points (linear regression). */
  size: number;
}

export interface BenchmarkPlan {
  /** Products m×k by k×n. */
  matmuls: [number, number, number][];
  steps: StepCase[];
  timing: CaseTiming;
  rules: TimingRules;
  /** The FMA peak: invocations per dispatch, and how long a dispatch must run to be timed. */
  peak: { invocations: number; minRunMs: number; maxIterations: number };
}

/** The square products, then the chapters' shapes (torch's, and tf's scaled to n = 10000). */
export const BENCH_MATMULS: [number, number, number][] = [
  [256, 256, 256],
  [512, 512, 512],
  [1024, 1024, 1024],
  [2048, 2048, 2048],
  [10000, 200, 10000],
  [10000, 100, 10000],
];

export const BENCH_STEPS: StepCase[] = [
  { name: 'cnn-step', size: 128 },
  { name: 'text-step', size: 32 },
  { name: 'linreg-step', size: 1_000_000 },
];

/** The bench's sizes: for a real GPU. */
export const FULL_PLAN: BenchmarkPlan = {
  matmuls: BENCH_MATMULS,
  steps: BENCH_STEPS,
  timing: { warmup: 2, repeats: 5, budgetMs: 30_000 },
  rules: BENCH_RULES,
  // Enough invocations to fill a large GPU.
  peak: { invocations: 1 << 18, minRunMs: 50, maxIterations: 1 << 20 },
};

/** A CPU emulation (SwiftShader): the same cases, small enough to finish in tens of seconds. */
export const EMULATED_PLAN: BenchmarkPlan = {
  matmuls: [
    [256, 256, 256],
    [512, 512, 512],
  ],
  steps: [
    { name: 'cnn-step', size: 16 },
    { name: 'linreg-step', size: 100_000 },
  ],
  timing: { warmup: 1, repeats: 3, budgetMs: 10_000 },
  rules: { minWarmupMs: 100, minTimedMs: 100, maxRepeats: 5 },
  peak: { invocations: 1 << 14, minRunMs: 50, maxIterations: 4096 },
};
