/** What the benchmark measures, and on which engines. Sizes are the issue's and the chapters'. */
import { BENCH_MATMULS } from '../../src/engine/benchmark/plan';
import { peakFlops } from '../../src/engine/benchmark/peak-fma';
import type { CaseRequest, EngineName } from './protocol';

/** The square products, and the chapters' shapes (the app's device benchmark runs the same). */
const SQUARE = BENCH_MATMULS.filter(([m, k, n]) => m === k && k === n);
const CHAPTERS = BENCH_MATMULS.filter(([m, k, n]) => !(m === k && k === n));

const matmul = (m: number, k: number, n: number, slow: boolean): CaseRequest => ({
  name: 'matmul',
  flops: 2 * m * k * n,
  params: { m, k, n },
  // Three warm-ups for products up to 512³ (cheap on every engine): the first products also grow
  // memory, fill buffer pools and let the JIT tier up (256³ on our CPU backend: ~9 ms for the
  // first two runs, 1 ms from the third on). Two for larger ones: on ours the first tunes the
  // product's class, the second whether its aliasing operands are read through padded copies.
  warmup: m * k * n <= 512 ** 3 ? 3 : 2,
  repeats: slow ? 3 : 5,
  budgetMs: slow ? 40_000 : 60_000,
});

/** A training step: warm-ups compile kernels (and tune ours); slow engines get 1–2 timed runs. */
const step = (
  name: string,
  params: Record<string, number>,
  slow: boolean,
  repeats = 5,
): CaseRequest => ({
  name,
  flops: 0,
  params,
  warmup: slow ? 1 : 2,
  repeats: slow ? 2 : repeats,
  // Past the budget the case stops after the current repetition (TF.js's CNN step takes ~30 s).
  // The budget counts the warm-ups too: ours tunes the CNN's classes in its first warm-up (~50 s
  // on SwiftShader at first use), which left one or two timed steps in a 60 s budget.
  budgetMs: slow ? 45_000 : 120_000,
});

/** Issue 36: a 2-layer LSTM (hidden 128, 32 steps) and a 2-layer Transformer encoder (d 128, 64 tokens). */
const SEQUENCE_STEPS = [
  { name: 'lstm-step', params: { batch: 32 } },
  { name: 'transformer-step', params: { batch: 16 } },
];

/**
 * The cell engines come first in each case's turn: they run the case as a notebook does, before
 * ours-webgpu's first-use tuner has chosen (and stored in IndexedDB) its variants for it.
 */
export const ENGINES: EngineName[] = [
  'peak-fma',
  'cell-ts',
  'cell-python',
  'ours-webgpu',
  'ours-python',
  'tfjs-webgpu',
  'jaxjs-webgpu',
  'ours-cpu',
  'tfjs-wasm',
  'tfjs-cpu',
];

/**
 * Issue 38: the cases as notebook cells (engines/cells.ts), timed inside the cell: one warm-up and
 * three timed runs (fixed by the cells, not by these fields). First, in a kernel of its own,
 * 25 products of 1024³ in one cell, each timed: it runs before any other case has tuned that
 * class, so it shows what a loop pays while the app's tuner works.
 */
function cellCases(): CaseRequest[] {
  const cell = (name: string, flops: number, params: Record<string, number>): CaseRequest => ({
    name,
    flops,
    params,
    warmup: 1,
    repeats: 3,
    budgetMs: 0,
  });
  return [
    {
      ...cell('matmul-loop', 2 * 1024 ** 3, { m: 1024, k: 1024, n: 1024, products: 25 }),
      warmup: 0,
      repeats: 25,
      ownWorker: true,
    },
    ...SQUARE.map(([s]) => cell('matmul', 2 * s ** 3, { m: s, k: s, n: s })),
    cell('cnn-step', 0, { batch: 128 }),
    cell('linreg-step', 0, { points: 1_000_000 }),
    ...SEQUENCE_STEPS.map((c) => cell(c.name, 0, c.params)),
  ];
}

/** Cases per engine: TF.js's plain CPU backend skips the biggest shapes (minutes each). */
export function casesFor(engine: EngineName): CaseRequest[] {
  if (engine === 'cell-ts' || engine === 'cell-python') return cellCases();
  if (engine === 'peak-fma') {
    // The yardstick (PEAK_ROUNDS a loop iteration), and the one-round kernel that issue 19's
    // machine classes (~10 and ~21 GFLOPS) were measured with, so runs can be placed among them.
    return [
      {
        name: 'peak-fma',
        flops: peakFlops(16384, 256),
        params: { invocations: 16384, iterations: 256 },
        warmup: 1,
        repeats: 5,
        budgetMs: 30_000,
      },
      {
        name: 'peak-fma-1-round',
        flops: peakFlops(16384, 4096, 1),
        params: { invocations: 16384, iterations: 4096, rounds: 1 },
        warmup: 1,
        repeats: 5,
        budgetMs: 30_000,
      },
    ];
  }
  // Python cells and TypeScript cells on the same device: the training steps and what one op
  // costs from each language (2000 small ops read back once).
  const crossing: CaseRequest = {
    name: 'op-crossing',
    flops: 0,
    params: { ops: 2000 },
    warmup: 1,
    repeats: 5,
    budgetMs: 30_000,
  };
  if (engine === 'ours-python') {
    // In the app, Python and TypeScript cells share one engine and so one tuner. Here Python has
    // its own engine: started afresh at each of its turns, it reads from IndexedDB what
    // ours-webgpu's tuner has just chosen for the same case, instead of tuning in its own runs.
    return [
      crossing,
      step('cnn-step', { batch: 128 }, false, 5),
      step('linreg-step', { points: 1_000_000 }, false, 5),
      step('keras-text-step', { batch: 32 }, false, 5),
      ...SEQUENCE_STEPS.map((c) => step(c.name, c.params, false, 5)),
    ].map((c) => ({ ...c, ownWorker: true }));
  }
  const slow = engine === 'tfjs-cpu' || engine === 'tfjs-webgpu';
  const cpuSide = engine === 'ours-cpu' || engine === 'tfjs-wasm' || engine === 'tfjs-cpu';
  // TF.js's WebGPU matmul runs ~0.3 GFLOPS here: its 2048³ and chapter-shaped products take about
  // a minute each, so they get one timed run (after one warm-up for 2048³, none for the chapter
  // shapes, whose minute dwarfs a shader compile) — the targets compare against them. So do
  // jax-js's (0.43 GFLOPS at 1024³ in a narrow run here: 1.5 min for a chapter-shaped product).
  const once = (c: CaseRequest, warmup: number): CaseRequest => ({ ...c, warmup, repeats: 1 });
  const fewRuns = engine === 'tfjs-webgpu' || engine === 'jaxjs-webgpu';
  const square = SQUARE.filter(([s]) => !(engine === 'tfjs-cpu' && s > 1024)).map(([s]) => {
    const c = matmul(s, s, s, slow || cpuSide);
    return fewRuns && s > 1024 ? once(c, 1) : c;
  });
  // The chapters' shapes: torch [10000,200]x[200,10000]; tf [10000,100]x[100,100000] scaled by 1/10.
  const chapters = (
    engine === 'tfjs-cpu' ? [] : CHAPTERS.map(([m, k, n]) => matmul(m, k, n, cpuSide))
  ).map((c) => (fewRuns ? once(c, 0) : c));
  const training = [
    step('cnn-step', { batch: 128 }, slow || cpuSide, 5),
    step('text-step', { batch: 32 }, slow || cpuSide, 5),
    step('linreg-step', { points: 1_000_000 }, slow, 5),
    // The TF chapters' step through our TS Keras (paired with the Python Keras one).
    ...(engine === 'ours-webgpu' ? [step('keras-text-step', { batch: 32 }, false, 5)] : []),
    // Issue 36's sequence models (TF.js: engines/tfjs-sequence.ts).
    ...SEQUENCE_STEPS.map((c) => step(c.name, c.params, slow || cpuSide, 5)),
  ]
    // TF.js's plain CPU backend takes ~45 s a CNN step (and many minutes for the text model, which
    // no target compares against): the CNN step only, one timed run, no warm-up (it compiles
    // nothing).
    .filter((c) => engine !== 'tfjs-cpu' || c.name === 'cnn-step')
    .map((c) => (engine === 'tfjs-cpu' ? { ...c, warmup: 0, repeats: 1 } : c))
    // jax-js (issue 38): the steps the issue compares, not the TF chapter's text model.
    .filter((c) => engine !== 'jaxjs-webgpu' || c.name !== 'text-step');
  const memory: CaseRequest[] =
    engine === 'ours-webgpu'
      ? [
          {
            name: 'spill-1000',
            flops: 0,
            params: { steps: 1000, points: 100_000 },
            warmup: 0,
            repeats: 1,
            budgetMs: 1,
          },
          {
            name: 'memory-1000',
            flops: 0,
            params: { steps: 1000 },
            warmup: 0,
            repeats: 1,
            budgetMs: 1,
          },
          // It restarts the engine on a GPU split into two logical GPUs: in a worker of its own,
          // right after the whole GPU's CNN step, so the two are timed in the same minutes.
          {
            ...step('cnn-step-split', { batch: 128 }, false, 5),
            ownWorker: true,
            turnWith: 'cnn-step',
          },
        ]
      : [];
  return [
    ...(engine === 'ours-webgpu' ? [crossing] : []),
    ...square,
    ...chapters,
    ...training,
    ...memory,
  ];
}
