/**
 * Starts the engine inside the worker and hands the session its cell API globals.
 * The backend is WebGPU when `navigator.gpu` gives an adapter here, otherwise the CPU; tensors
 * print and display through the engine's formatter (reading values back is async, which the
 * output sink's ordering absorbs).
 */
import * as api from '../api';
import { pythonHeldTensors } from '../api/python/ownership';
import {
  deviceReport,
  emptyCache,
  formatTensor,
  initEngine,
  listDevices,
  memorySnapshot,
  onDeviceLost,
  recoverLostDevices,
  setRootProvider,
  Tensor,
} from '../engine';
import { fetchAssetReader, setAssetReader } from '../engine/data/datasets';
import { Module } from '../engine/nn';
import { setTensorStore } from '../engine/serialization';
import { setTrainingOutput } from '../engine/training';
import { registerDisplayConverter, registerTextFormatter } from './display';
import { indexedDbTensorStore } from './idb-tensor-store';
import type { EngineSetup } from './session';

registerTextFormatter((value) => (value instanceof Tensor ? formatTensor(value) : null));
// Modules are callable (functions), so without this they would print as `[Function]`.
registerTextFormatter((value) => (value instanceof Module ? String(value) : null));
registerDisplayConverter((value) =>
  value instanceof Tensor ? formatTensor(value).then((text) => ({ 'text/plain': text })) : null,
);

export async function setupEngine(
  _params: Record<string, string>,
  options: { devices?: unknown } = {},
): Promise<EngineSetup> {
  const gpu = (globalThis.navigator as Navigator | undefined)?.gpu ?? null;
  // The notebook's device settings (the device panel's, from its metadata) apply before any cell.
  const status = await initEngine({ gpu, devices: options.devices });
  // Bundled datasets are served beside the app (public/data); saved tensors go to IndexedDB.
  setAssetReader(fetchAssetReader(new URL(`${import.meta.env.BASE_URL}data/`, self.location.href)));
  if (typeof indexedDB !== 'undefined') setTensorStore(indexedDbTensorStore());
  const gpuDevice = listDevices().find((d) => d.kind === 'gpu');
  return {
    info: {
      backend: status.backend,
      adapter: gpuDevice ? gpuDevice.info.label : (status.reason ?? null),
      cooperativeInterrupt: false,
    },
    globals: { ...api },
    // The notebook's names, and every tensor a Python object holds (Python's variables are not
    // walked: its wrappers count what they hold), so step sweeps leave both on the device.
    setRoots: (roots) => setRootProvider(() => [...roots(), ...pythonHeldTensors()]),
    attachOutput: (write) => setTrainingOutput(write),
    devices: {
      report: deviceReport,
      memory: memorySnapshot,
      emptyCache: () => emptyCache(),
      onLost: onDeviceLost,
      recover: recoverLostDevices,
    },
  };
}
