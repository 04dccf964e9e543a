import { describe, expect, it } from 'vitest';
import { capabilitiesSentence, classifyAdapter, probeCapabilities } from './capabilities';

describe('browser capabilities', () => {
  it('calls SwiftShader a CPU emulation and a real adapter a GPU', () => {
    const swift = classifyAdapter({
      vendor: 'google',
      architecture: 'swiftshader',
      description: '',
    });
    expect(swift.kind).toBe('emulated');
    expect(capabilitiesSentence(swift)).toMatch(/google · swiftshader\) is a CPU emulation/);
    const real = classifyAdapter({ vendor: 'nvidia', architecture: 'ampere', description: 'RTX' });
    expect(real.kind).toBe('gpu');
    expect(capabilitiesSentence(real)).toBe(
      'Notebooks will run on your GPU through WebGPU: nvidia · ampere · RTX.',
    );
  });

  it('falls back to the CPU backend without WebGPU or without an adapter', async () => {
    const missing = await probeCapabilities(undefined);
    expect(capabilitiesSentence(missing)).toMatch(/no WebGPU.*CPU backend/);
    const noAdapter = { requestAdapter: () => Promise.resolve(null) } as unknown as GPU;
    expect(await probeCapabilities(noAdapter)).toEqual({
      kind: 'none',
      reason: 'no adapter was offered',
    });
  });

  it('reads the adapter Dawn offers in Node', async () => {
    const { create, globals } = await import('webgpu');
    Object.assign(globalThis, globals);
    const result = await probeCapabilities(create([]));
    // Dawn in this environment runs on SwiftShader (no GPU on the machine).
    expect(result.kind).not.toBe('none');
    if (result.kind !== 'none') expect(result.adapter.architecture.length).toBeGreaterThan(0);
  });
});
