/**
 * Starts the engine inside the worker and hands the session its cell API globals.
 * The backend is WebGPU when `navigator.gpu` gives an adapter here, otherwise the CPU.
 */
import type { EngineSetup } from './session';

export async function setupEngine(): Promise<EngineSetup> {
  const gpu = (globalThis.navigator as Navigator | undefined)?.gpu ?? null;
  const adapter = gpu ? await gpu.requestAdapter() : null;
  const info = adapter?.info;
  return {
    info: {
      backend: adapter ? 'webgpu' : 'cpu',
      adapter: info
        ? [info.vendor, info.architecture, info.description].filter(Boolean).join(' ')
        : null,
      cooperativeInterrupt: false,
    },
    globals: {},
  };
}
