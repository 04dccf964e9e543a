/**
 * `benchmarkDevice()`: the benchmark's matrix products and training steps on this kernel's cpu
 * and first GPU (src/engine/benchmark), shown as one output whose text is the report's Markdown
 * and whose BENCHMARK_MIME part is the report itself (the timing panel draws its table from it).
 * Sizes: the bench's own on a real GPU, smaller ones on a CPU emulation (or when asked).
 */
import { benchmarkDevice } from '../../engine/benchmark/device-benchmark';
import { EMULATED_PLAN, FULL_PLAN } from '../../engine/benchmark/plan';
import { benchmarkMarkdown, type DeviceBenchmarkReport } from '../../engine/benchmark/report';
import { cpu, gpuDevices } from '../../engine/devices/registry';
import type { OutputSink } from '../output-sink';
import { BENCHMARK_MIME } from '../protocol';
import { isEmulatedAdapter } from './emulated-adapter';
import { markShown, showBundle, type SinkSource } from './live-display';

export interface DeviceBenchmarkOptions {
  /** `auto` (default): `small` on a CPU emulation of a GPU or without one, else `full`. */
  sizes?: 'auto' | 'full' | 'small';
}

export function createBenchmarkGlobal(target: SinkSource) {
  return async (options: DeviceBenchmarkOptions = {}): Promise<DeviceBenchmarkReport> => {
    const sink = (): OutputSink | null => target.current();
    const sizes = options.sizes ?? 'auto';
    if (!['auto', 'full', 'small'].includes(sizes)) {
      throw new TypeError(`benchmarkDevice: sizes must be 'auto', 'full' or 'small', got ${sizes}`);
    }
    const gpu = gpuDevices()[0] ?? null;
    const small =
      sizes === 'small' || (sizes === 'auto' && (!gpu || isEmulatedAdapter(gpu.info.label)));
    const webgpu = typeof navigator !== 'undefined' && navigator.gpu ? navigator.gpu : null;
    const report = await benchmarkDevice({
      plan: small ? EMULATED_PLAN : FULL_PLAN,
      cpu: cpu(),
      gpu,
      webgpu,
      progress: (text) =>
        sink()?.add({ kind: 'stream', name: 'stdout', text: `Timing ${text}…\n` }),
    });
    const out = sink();
    showBundle(out, { 'text/plain': benchmarkMarkdown(report), [BENCHMARK_MIME]: report });
    if (out) markShown(out, report);
    return report;
  };
}
