/**
 * "Benchmark this device": the benchmark's matrix products and training steps on the cpu and the
 * first GPU of this engine, plus the adapter's FMA peak, as a report (report.ts). The same cases
 * and timing rules as `npm run bench` (timing.ts, workloads.ts, plan.ts), without a comparison
 * engine. Each GPU product is timed between two timings of the peak (beside-peak.ts), and its
 * "% of peak" is against those.
 */
import type { Device } from '../devices/device';
import { tuningAtFirstUse } from '../devices/tuning';
import { besidePeak } from './beside-peak';
import { peakFlops, peakFmaCase } from './peak-fma';
import type { BenchmarkPlan } from './plan';
import type { BenchmarkRow, DeviceBenchmarkReport, Side } from './report';
import { median, timeRepetitions, type CaseSetup, type TimedCase } from './timing';
import { cnnStep, linregStep, matmulCase, matmulFlops, textStep } from './workloads';

export interface DeviceBenchmarkOptions {
  plan: BenchmarkPlan;
  cpu: Device;
  /** The GPU to measure, or null (a CPU-only browser: only the CPU side runs). */
  gpu: Device | null;
  /** The WebGPU entry point the GPU came from, for the FMA peak's own device (null: no peak). */
  webgpu: GPU | null;
  /** Told before each case starts (a cell prints it). */
  progress?: (text: string) => void;
  now?: () => number;
}

function side(timed: TimedCase): Side {
  if (timed.error !== undefined) return { error: timed.error };
  if (timed.seconds.length === 0) return { error: 'no timed run' };
  return {
    medianSeconds: median(timed.seconds),
    minSeconds: Math.min(...timed.seconds),
    maxSeconds: Math.max(...timed.seconds),
    runs: timed.seconds.length,
  };
}

/** A step's setup: each repetition is one step, then waits for the tuner if it is still timing. */
function stepSetup(device: Device, make: (d: Device) => () => Promise<number>): CaseSetup {
  return async () => {
    const step = make(device);
    const tuning = device.capability('tuning');
    return {
      run: async () => {
        await step();
        await tuning?.tuned();
      },
    };
  };
}

function matmulSetup(device: Device, m: number, k: number, n: number): CaseSetup {
  return async () => {
    const prepared = matmulCase(device, m, k, n);
    const tuning = device.capability('tuning');
    return {
      ...prepared,
      run: async () => {
        await prepared.run();
        // Warm-ups start autotuning; timed runs wait for it to have chosen.
        await tuning?.tuned();
      },
    };
  };
}

/** The peak kernel's size once measured, and a way to time it again (beside each product). */
interface Peak {
  gflops: number;
  /** Floating-point operations of one dispatch. */
  flops: number;
  /** Seconds of each of a few timed runs of the same dispatch. */
  time: () => Promise<number[]>;
}

/** Fewer runs for the readings beside each product than for the report's own peak. */
const BESIDE_RUNS = { warmup: 1, repeats: 3 };

/**
 * The FMA peak in GFLOPS: iterations grow until one dispatch takes at least `minRunMs` (a real
 * GPU finishes the emulation-sized dispatch in microseconds), then the peak case is timed.
 */
async function measurePeak(
  webgpu: GPU,
  plan: BenchmarkPlan,
  now: () => number,
): Promise<Peak | { error: string }> {
  const setup = peakFmaCase(webgpu);
  const { invocations, minRunMs, maxIterations } = plan.peak;
  let iterations = 64;
  try {
    for (;;) {
      const { run, cleanup } = await setup({ invocations, iterations });
      await run();
      const t0 = now();
      await run();
      const ms = now() - t0;
      cleanup?.();
      if (ms >= minRunMs || iterations >= maxIterations) break;
      const factor = ms > 0 ? Math.ceil(minRunMs / ms) : 64;
      iterations = Math.min(maxIterations, iterations * Math.max(2, factor));
    }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const params = { invocations, iterations };
  const timed = await timeRepetitions(plan.timing, params, setup, plan.rules, now);
  if (timed.seconds.length === 0) return { error: timed.error ?? 'no timed run' };
  const flops = peakFlops(invocations, iterations);
  const beside = { ...plan.timing, ...BESIDE_RUNS };
  return {
    gflops: flops / median(timed.seconds) / 1e9,
    flops,
    time: async () => (await timeRepetitions(beside, params, setup, plan.rules, now)).seconds,
  };
}

export async function benchmarkDevice(
  options: DeviceBenchmarkOptions,
): Promise<DeviceBenchmarkReport> {
  const { plan, cpu, gpu, webgpu } = options;
  const now = options.now ?? (() => performance.now());
  const progress = options.progress ?? (() => undefined);
  const date = new Date().toISOString();
  let peak: Peak | null = null;
  let peakError: string | undefined;
  if (gpu && webgpu) {
    progress('FMA peak of the adapter');
    const measuredPeak = await measurePeak(webgpu, plan, now);
    if ('gflops' in measuredPeak) peak = measuredPeak;
    else peakError = measuredPeak.error;
  }
  const rows: BenchmarkRow[] = [];
  // The tuned steady state is what a benchmark reports: each class tunes at its first warm-up,
  // not after it has run a while (the notebook's policy, set back when done).
  await tuningAtFirstUse(
    async () => {
      const time = async (label: string, setup: (device: Device) => CaseSetup, flops: number) => {
        const row: BenchmarkRow = { case: label, flops, gpu: null, cpu: null };
        for (const [key, device] of [
          ['gpu', gpu],
          ['cpu', cpu],
        ] as const) {
          if (!device) continue;
          progress(`${label} on ${device.name}`);
          const timeSide = () => timeRepetitions(plan.timing, {}, setup(device), plan.rules, now);
          if (key === 'gpu' && peak && flops > 0) {
            const beside = await besidePeak(peak.time, timeSide);
            row.gpu = side(beside.result);
            if (beside.peakSeconds.length > 0) {
              row.peakGflops = peak.flops / median(beside.peakSeconds) / 1e9;
            }
          } else {
            row[key] = side(await timeSide());
          }
        }
        rows.push(row);
      };
      for (const [m, k, n] of plan.matmuls) {
        await time(
          `matmul m=${m} k=${k} n=${n}`,
          (d) => matmulSetup(d, m, k, n),
          matmulFlops(m, k, n),
        );
      }
      for (const step of plan.steps) {
        const make =
          step.name === 'cnn-step'
            ? (d: Device) => cnnStep(d, step.size)
            : step.name === 'text-step'
              ? (d: Device) => textStep(d, step.size)
              : (d: Device) => linregStep(d, step.size);
        const what = step.name === 'linreg-step' ? 'points' : 'batch';
        await time(`${step.name} ${what}=${step.size}`, (d) => stepSetup(d, make), 0);
      }
    },
    gpu ? [gpu] : [],
  );
  const adapterName = gpu?.info.label ?? 'no GPU';
  const peakGflops = peak?.gflops ?? null;
  return { adapter: adapterName, date, peakGflops, ...(peakError ? { peakError } : {}), rows };
}
