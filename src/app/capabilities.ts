/**
 * What this browser offers the notebooks: the WebGPU adapter gpu:0 will use (the kernel asks for
 * the high-performance one first), a CPU emulation of a GPU, or no WebGPU at all.
 */

/** The adapter fields we show; a subset of GPUAdapterInfo so tests can build one by hand. */
export interface AdapterFacts {
  vendor: string;
  architecture: string;
  description: string;
}

export type Capabilities =
  | { kind: 'gpu'; adapter: AdapterFacts }
  /** SwiftShader and friends: WebGPU works, but every kernel runs on the CPU. */
  | { kind: 'emulated'; adapter: AdapterFacts }
  | { kind: 'none'; reason: string };

const EMULATED = /swiftshader|llvmpipe|lavapipe|warp|basic render/i;

export function classifyAdapter(adapter: AdapterFacts): Capabilities {
  const all = `${adapter.vendor} ${adapter.architecture} ${adapter.description}`;
  return EMULATED.test(all) ? { kind: 'emulated', adapter } : { kind: 'gpu', adapter };
}

/** "vendor · architecture · description", skipping the empty fields browsers often leave. */
export function adapterLabel(adapter: AdapterFacts): string {
  const parts = [adapter.vendor, adapter.architecture, adapter.description].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : 'an unnamed adapter';
}

/** One plain sentence for the home page. */
export function capabilitiesSentence(capabilities: Capabilities): string {
  switch (capabilities.kind) {
    case 'gpu':
      return `Notebooks will run on your GPU through WebGPU: ${adapterLabel(capabilities.adapter)}.`;
    case 'emulated':
      return (
        `WebGPU is available, but its adapter (${adapterLabel(capabilities.adapter)}) is a CPU ` +
        'emulation of a GPU: "GPU" code works, yet runs on the CPU and is slow.'
      );
    case 'none':
      return `This browser offers no WebGPU (${capabilities.reason}): everything runs on the CPU backend.`;
  }
}

/** Asks the browser the way the kernel does; never throws. */
export async function probeCapabilities(gpu: GPU | undefined): Promise<Capabilities> {
  if (!gpu) return { kind: 'none', reason: 'navigator.gpu is missing' };
  try {
    const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (!adapter) return { kind: 'none', reason: 'no adapter was offered' };
    const { vendor, architecture, description } = adapter.info;
    return classifyAdapter({ vendor, architecture, description });
  } catch (error) {
    return { kind: 'none', reason: error instanceof Error ? error.message : String(error) };
  }
}
