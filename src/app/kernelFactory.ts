/**
 * Makes the page's KernelClient: the one place that names the kernel worker's file, so the
 * bundler emits the worker and everything else deals only with KernelClient.
 */
import { KernelClient, workerPort } from '../kernel/client';
import type { DeviceSettings } from '../kernel/protocol';

/** `deviceSettings` is read at every (re)start: the notebook's device panel settings. */
export function createKernelClient(
  params: Record<string, string>,
  deviceSettings?: () => DeviceSettings | null,
): KernelClient {
  return new KernelClient({
    openWorker: (events) =>
      workerPort(
        new Worker(new URL('../kernel/worker.ts', import.meta.url), {
          type: 'module',
          name: 'gpubook-kernel',
        }),
        events,
      ),
    params,
    deviceSettings,
  });
}
