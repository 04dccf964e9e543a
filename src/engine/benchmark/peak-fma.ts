/**
 * The adapter's measured FMA peak, the yardstick of "% of peak": a register-only kernel
 * (peak-fma.wgsl) on a device of its own, opened on the adapter the engine's GPU uses. Not an
 * engine kernel (it computes nothing anyone reads), so it lives with the measuring code.
 */
import shader from './peak-fma.wgsl?raw';
import type { CaseSetup } from './timing';

/** Floating-point operations of one dispatch: 8 vec4 FMAs (2 flops per lane) per iteration. */
export function peakFlops(invocations: number, iterations: number): number {
  return 64 * invocations * iterations;
}

/**
 * The peak case on the default adapter of `gpu` (params: invocations, a multiple of 64, and
 * iterations); each setup opens a device of its own (an adapter gives one) and its cleanup
 * closes it.
 */
export function peakFmaCase(gpu: GPU): CaseSetup {
  return async ({ invocations, iterations }) => {
    const adapter = await gpu.requestAdapter();
    if (!adapter) throw new Error('no WebGPU adapter');
    const device = await adapter.requestDevice();
    const module = device.createShaderModule({ code: shader });
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
