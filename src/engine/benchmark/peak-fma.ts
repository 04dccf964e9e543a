/**
 * The adapter's measured FMA peak, the yardstick of "% of peak": a register-only kernel
 * (peak-fma.wgsl) on a device of its own, opened on the adapter the engine's GPU uses. Not an
 * engine kernel (it computes nothing anyone reads), so it lives with the measuring code.
 */
import template from './peak-fma.wgsl?raw';
import type { CaseSetup } from './timing';

/**
 * Rounds of FMAs per loop iteration (a round: each of the 8 vec4 chains once). With one round, the
 * kernel of runs before 2026-11-26 and of issue 19's machine classes, SwiftShader spends most of
 * its time on the loop (measured there at under half of what 16 rounds give); 32 rounds fall off a
 * cliff again (9.7 against 20.2 GFLOPS in Chromium), so 16 it is.
 */
export const PEAK_ROUNDS = 16;

/** The peak kernel with `rounds` rounds per iteration, unrolled. */
export function peakShader(rounds: number): string {
  const chains = Array.from({ length: 8 }, (_, i) => `a${i} = fma(a${i}, m, c);`).join(' ');
  return template.replace('/*ROUNDS*/', Array(rounds).fill(`    ${chains}`).join('\n'));
}

/** Floating-point operations of one dispatch: 8 vec4 FMAs (2 flops per lane) per round. */
export function peakFlops(invocations: number, iterations: number, rounds = PEAK_ROUNDS): number {
  return 64 * rounds * invocations * iterations;
}

/**
 * The peak case on the default adapter of `gpu` (params: invocations, a multiple of 64,
 * iterations, and optionally rounds, PEAK_ROUNDS by default); each setup opens a device of its
 * own (an adapter gives one) and its cleanup closes it.
 */
export function peakFmaCase(gpu: GPU): CaseSetup {
  return async ({ invocations, iterations, rounds = PEAK_ROUNDS }) => {
    const adapter = await gpu.requestAdapter();
    if (!adapter) throw new Error('no WebGPU adapter');
    const device = await adapter.requestDevice();
    const module = device.createShaderModule({ code: peakShader(rounds) });
    const pipeline = device.createComputePipeline({
      layout: 'auto',
      compute: { module, entryPoint: 'main' },
    });
    const sink = device.createBuffer({ size: invocations * 16, usage: GPUBufferUsage.STORAGE });
    const uniform = device.createBuffer({
      size: 16,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(uniform, 0, new Uint32Array([iterations, 0, 0, 0]));
    const bindGroup = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: sink } },
        { binding: 1, resource: { buffer: uniform } },
      ],
    });
    return {
      run: async () => {
        const encoder = device.createCommandEncoder();
        const pass = encoder.beginComputePass();
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, bindGroup);
        pass.dispatchWorkgroups(invocations / 64);
        pass.end();
        device.queue.submit([encoder.finish()]);
        await device.queue.onSubmittedWorkDone();
      },
      cleanup: () => {
        sink.destroy();
        uniform.destroy();
        device.destroy();
      },
    };
  };
}
