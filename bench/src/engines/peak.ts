/** The adapter's measured FMA peak: the yardstick for "fraction of peak" in RESULTS.md. */
import shader from '../peak-fma.wgsl?raw';
import type { CaseSetup } from '../timing';

export async function peakCases(): Promise<Record<string, CaseSetup>> {
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) return {};
  const device = await adapter.requestDevice();
  const module = device.createShaderModule({ code: shader });
  const pipeline = device.createComputePipeline({
    layout: 'auto',
    compute: { module, entryPoint: 'main' },
  });
  return {
    'peak-fma': async (params) => {
      const invocations = params.invocations;
      const sink = device.createBuffer({ size: invocations * 16, usage: GPUBufferUsage.STORAGE });
      const uniform = device.createBuffer({
        size: 16,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      });
      device.queue.writeBuffer(uniform, 0, new Uint32Array([params.iterations, 0, 0, 0]));
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
        },
      };
    },
  };
}
