/**
 * Physical GPUs: the distinct WebGPU adapters a browser offers. WebGPU names no adapters; it only
 * answers a power preference, so we ask for 'high-performance' and 'low-power' and list both only
 * when they differ (a laptop's discrete and integrated GPUs), each with its limits and features.
 */
import type { DeviceInfo } from './device';

export interface PhysicalGpu {
  /** Index in TensorFlow's numbering ('/physical_device:GPU:0'). */
  readonly index: number;
  readonly name: string;
  /** The preference that finds this adapter again (each logical GPU asks for its own). */
  readonly powerPreference: GPUPowerPreference;
  readonly info: DeviceInfo;
  /** A CPU emulation such as SwiftShader rather than a real GPU. */
  readonly fallback: boolean;
  readonly limits: Readonly<Record<string, number>>;
  readonly features: readonly string[];
  /** Identifies the adapter across requests (vendor, architecture, device, description). */
  readonly key: string;
}

export function adapterKey(adapter: GPUAdapter): string {
  const info = adapter.info;
  return [info.vendor, info.architecture, info.device, info.description].join('|');
}

export function describeAdapter(info: GPUAdapterInfo | undefined): DeviceInfo {
  const vendor = info?.vendor ?? '';
  const architecture = info?.architecture ?? '';
  const label = info?.description || `${vendor} ${architecture}`.trim() || 'WebGPU adapter';
  return { label, vendor, architecture };
}

function limitsOf(adapter: GPUAdapter): Record<string, number> {
  const out: Record<string, number> = {};
  // GPUSupportedLimits exposes its values as prototype getters, so enumerate with for…in.
  for (const key in adapter.limits) {
    const value = (adapter.limits as unknown as Record<string, unknown>)[key];
    if (typeof value === 'number') out[key] = value;
  }
  return out;
}

function isFallback(adapter: GPUAdapter): boolean {
  const info = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  const text = `${info.vendor} ${info.architecture} ${info.device} ${info.description}`;
  return info.isFallbackAdapter === true || /swiftshader|llvmpipe|lavapipe|warp/i.test(text);
}

export function describePhysical(
  adapter: GPUAdapter,
  index: number,
  powerPreference: GPUPowerPreference,
): PhysicalGpu {
  return {
    index,
    name: `/physical_device:GPU:${index}`,
    powerPreference,
    info: describeAdapter(adapter.info),
    fallback: isFallback(adapter),
    limits: limitsOf(adapter),
    features: [...adapter.features].map(String).sort(),
    key: adapterKey(adapter),
  };
}

export interface Discovery {
  gpus: PhysicalGpu[];
  /** The adapters found, unconsumed: the first logical GPU on each physical one uses it. */
  adapters: GPUAdapter[];
}

/** Asks WebGPU for its high-performance and low-power adapters and keeps the distinct ones. */
export async function discoverGpus(gpu: GPU): Promise<Discovery> {
  const gpus: PhysicalGpu[] = [];
  const adapters: GPUAdapter[] = [];
  for (const powerPreference of ['high-performance', 'low-power'] as const) {
    const adapter = await gpu.requestAdapter({ powerPreference });
    if (!adapter || gpus.some((g) => g.key === adapterKey(adapter))) continue;
    gpus.push(describePhysical(adapter, gpus.length, powerPreference));
    adapters.push(adapter);
  }
  return { gpus, adapters };
}
