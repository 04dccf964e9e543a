/**
 * Makes the page's KernelClient: the one place that names the kernel worker's file, so the
 * bundler emits the worker and everything else deals only with KernelClient.
 */
import { KernelClient, workerPort } from '../kernel/client';
import type { DeviceSettings } from '../kernel/protocol';
import { workerReserve } from './worker-reserve';

const kernelWorkers = workerReserve(
  () =>
    new Worker(new URL('../kernel/worker.ts', import.meta.url), {
      type: 'module',
      name: 'gpubook-kernel',
    }),
);

/** Starts a kernel worker now, for the first kernel to take (a page about to open a notebook). */
export function prewarmKernelWorker(): void {
  kernelWorkers.prewarm();
}

/** `deviceSettings` is read at every (re)start: the notebook's device panel settings. */
export function createKernelClient(
  params: Record<string, string>,
  deviceSettings?: () => DeviceSettings | null,
): KernelClient {
  return new KernelClient({
    openWorker: (events) => workerPort(kernelWorkers.take(), events),
    params,
    deviceSettings,
  });
}
