/**
 * What the notebook's kernel says about its devices — the device report, live memory snapshots and
 * the last lost device — held in a small store of its own for the device panel, fed by the
 * kernel client's events (the composition root attaches each new notebook kernel).
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { KernelClient } from '../../kernel/client';
import type { DeviceLostEvent, DeviceReport, MemorySnapshot } from '../../kernel/protocol';

export interface DeviceState {
  report: DeviceReport | null;
  memory: MemorySnapshot[];
  lost: DeviceLostEvent | null;
}

export const deviceStore = createStore<DeviceState>(() => ({
  report: null,
  memory: [],
  lost: null,
}));

type DeviceKernel = Pick<KernelClient, 'subscribe' | 'emptyCache'>;

let kernel: DeviceKernel | null = null;

/** Follows `client`'s device events from now on (the previous kernel's state is dropped). */
export function watchKernelDevices(
  client: DeviceKernel,
  onLost?: (event: DeviceLostEvent) => void,
): void {
  kernel = client;
  deviceStore.setState({ report: null, memory: [], lost: null });
  client.subscribe({
    devices: (report) => {
      if (kernel === client) deviceStore.setState({ report });
    },
    memory: (memory) => {
      if (kernel === client) deviceStore.setState({ memory });
    },
    deviceLost: (event) => {
      if (kernel !== client) return;
      deviceStore.setState({ lost: event });
      onLost?.(event);
    },
    // A new worker reports afresh; until then the old numbers would mislead.
    reset: () => {
      if (kernel === client) deviceStore.setState({ report: null, memory: [], lost: null });
    },
  });
}

/** Asks the notebook's kernel to return pooled device memory. */
export function emptyKernelCache(): void {
  kernel?.emptyCache();
}

export function useDeviceState<T>(selector: (state: DeviceState) => T): T {
  return useStore(deviceStore, selector);
}
