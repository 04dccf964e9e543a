/**
 * Makes the page's KernelClient: the one place that names the kernel worker's file, so the
 * bundler emits the worker and everything else deals only with KernelClient. Each client fetches
 * the Python package files its worker asks for from the package base in the settings, read at
 * each request (so a changed setting applies to the next import).
 */
import { KernelClient, workerPort, type PackageFileFetcher } from '../kernel/client';
import type { DeviceSettings } from '../kernel/protocol';
import { fetchPackageFile } from './python-packages/fetch-package-file';
import { openPackageCache } from './python-packages/package-cache';
import { readPackageBase } from './settings/package-base';
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

const pagePackageFetcher: PackageFileFetcher = async (request, onProgress) =>
  fetchPackageFile(request, onProgress, {
    base: readPackageBase(),
    cache: await openPackageCache(),
  });

/** `deviceSettings` is read at every (re)start: the notebook's device panel settings. */
export function createKernelClient(
  params: Record<string, string>,
  deviceSettings?: () => DeviceSettings | null,
): KernelClient {
  return new KernelClient({
    openWorker: (events) => workerPort(kernelWorkers.take(), events),
    params,
    deviceSettings,
    fetchPackageFile: pagePackageFetcher,
  });
}
