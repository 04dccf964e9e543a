/** What the benchmark measures, and on which engines. Sizes are the issue's and the chapters'. */
import type { CaseRequest, EngineName } from './protocol';

const matmul = (m: number, k: number, n: number, label?: string): CaseRequest => ({
  name: 'matmul',
  flops: 2 * m * k * n,
  params: { m, k, n },
  warmup: 1,
  repeats: 5,
  budgetMs: 60_000,
  ...(label ? {} : {}),
});

export const ENGINES: EngineName[] = [
  'peak-fma',
  'ours-webgpu',
  'tfjs-webgpu',
  'ours-cpu',
  'tfjs-wasm',
  'tfjs-cpu',
];

/** Cases per engine: slow engines skip the biggest shapes so the run stays within minutes. */
export function casesFor(engine: EngineName): CaseRequest[] {
  if (engine === 'peak-fma') {
    return [
      {
        name: 'peak-fma',
        flops: 64 * 16384 * 4096,
        params: { invocations: 16384, iterations: 4096 },
        warmup: 1,
        repeats: 5,
        budgetMs: 30_000,
      },
    ];
  }
  const square = [256, 512, 1024, 2048].map((s) => matmul(s, s, s));
  // The chapters' shapes: torch [10000,200]x[200,10000]; tf [10000,100]x[100,100000] scaled by 1/10.
  const chapters = [matmul(10000, 200, 10000), matmul(10000, 100, 10000)];
  const slow = engine === 'tfjs-cpu' || engine === 'tfjs-webgpu';
  return slow ? square.slice(0, 3) : [...square, ...chapters];
}
