import { create, globals } from 'webgpu';
import { describe, expect, it } from 'vitest';
import { memoryStore, pickFastest, PROBE_KEYS, type MatmulClassInput } from './autotune';
import { probeCandidates, probedVariant, probeLog, PROBE_TRIGGER_MACS } from './default-probe';
import { createWebGPUBackend } from './index';
import { chooseMatmulVariant } from './matmul';
import { at, randomFloats, rng, Workspace, type HostView } from './test-support';
import { blockedSpecOf, defaultMatmulVariant } from './variants';

describe('the probe candidates', () => {
  it('follow the features and limits: quads with subgroups, tiles with 256 invocations', () => {
    const roomy = {
      maxComputeInvocationsPerWorkgroup: 1024,
      maxComputeWorkgroupStorageSize: 32768,
    };
    expect(probeCandidates({ subgroups: true, ...roomy })).toEqual([
      'x16x8@4x8',
      'q16x8@4x8',
      'v8x8@8x8',
      's8x8@8x8',
      't8x8@16x16',
    ]);
    expect(probeCandidates({ subgroups: false, ...roomy })).toEqual([
      'v8x8@8x8',
      's8x8@8x8',
      't8x8@16x16',
    ]);
    const narrow = {
      maxComputeInvocationsPerWorkgroup: 128,
      maxComputeWorkgroupStorageSize: 32768,
    };
    expect(probeCandidates({ subgroups: false, ...narrow })).toEqual(['v8x8@8x8', 's8x8@8x8']);
  });
});

const gpuApi = (() => {
  Object.assign(globalThis, globals);
  return create([]);
})();
const adapter = await gpuApi.requestAdapter();

/** float64 product of every 13th output of [1, m, k] @ [1, k, n], checked against `got`. */
function expectProduct(got: ArrayLike<number>, a: HostView, b: HostView): void {
  const [, m, k] = a.view.shape;
  const n = b.view.shape[2];
  for (let i = 0; i < m; i += 5) {
    for (let j = (i * 7) % 13; j < n; j += 13) {
      let sum = 0;
      let magnitude = 0;
      for (let p = 0; p < k; p++) {
        const term = at(a, [0, i, p]) * at(b, [0, p, j]);
        sum += term;
        magnitude += Math.abs(term);
      }
      const value = got[i * n + j];
      if (!(Math.abs(value - sum) <= 1e-6 * magnitude + 1e-6)) {
        expect.fail(`out[${i},${j}] = ${value}, expected ${sum}`);
      }
    }
  }
}

describe.skipIf(!adapter)('the default probe on this adapter', () => {
  it('measures once at the first big product, persists, and a second start reuses it', async () => {
    const store = memoryStore();
    const gpu = await createWebGPUBackend((await gpuApi.requestAdapter())!, store);
    const ws = new Workspace(gpu);
    const random = rng(21);
    // 512³ = 2^27 multiply-adds: big enough to start the probe (the 'amortized' policy).
    const a = ws.view(randomFloats(512 * 512, random), [1, 512, 512]);
    const b = ws.view(randomFloats(512 * 512, random), [1, 512, 512]);
    const out = ws.output('float32', [1, 512, 512]);
    expect(512 ** 3).toBeGreaterThanOrEqual(PROBE_TRIGGER_MACS);
    gpu.matmul(a.view, b.view, out);
    await gpu.tuned();
    const [probe, ...more] = probeLog(gpu.context);
    expect(more).toHaveLength(0);
    // Every candidate computed the product right and was timed; the choice is the fastest.
    for (const r of [...probe.variants, ...probe.repack]) {
      expect(r.correct, r.variant).toBe(true);
      expect(Number.isFinite(r.ns) && r.ns > 0, r.variant).toBe(true);
    }
    const plain = pickFastest(probe.variants);
    const blocked = pickFastest(probe.variants.filter((r) => blockedSpecOf(r.variant)));
    expect(store.entries[PROBE_KEYS.plain]).toBe(plain);
    expect(store.entries[PROBE_KEYS.blocked]).toBe(blocked);
    expect(store.entries[PROBE_KEYS.repack]).toBe(pickFastest(probe.repack));
    // No per-class tuning run happened: one product is far below a class's run.
    expect(gpu.context.tuneLog).toHaveLength(0);

    // An untuned class now runs the probed default, and its product is right.
    const input: MatmulClassInput = {
      batch: 1,
      m: 300,
      n: 260,
      k: 200,
      aLayout: 'k',
      bLayout: 'n',
    };
    expect(chooseMatmulVariant(gpu.context, input)).toBe(plain);
    expect(chooseMatmulVariant(gpu.context, { ...input, blockedOnly: true })).toBe(blocked);
    const c = ws.view(randomFloats(300 * 200, random), [1, 300, 200]);
    const d = ws.view(randomFloats(200 * 260, random), [1, 200, 260]);
    const out2 = ws.output('float32', [1, 300, 260]);
    gpu.matmul(c.view, d.view, out2);
    expectProduct(await ws.read(out2), c, d);
    ws.releaseAll();

    // A later start on the same store: no probe, the stored default from the first product on.
    const again = await createWebGPUBackend((await gpuApi.requestAdapter())!, store);
    expect(chooseMatmulVariant(again.context, input)).toBe(plain);
    const ws2 = new Workspace(again);
    const a2 = ws2.view(a.host, [1, 512, 512]);
    const b2 = ws2.view(b.host, [1, 512, 512]);
    const out3 = ws2.output('float32', [1, 512, 512]);
    again.matmul(a2.view, b2.view, out3);
    await again.tuned();
    expect(probeLog(again.context)).toHaveLength(0);
    expectProduct(await ws2.read(out3), a2, b2);
    ws2.releaseAll();
  }, 120_000);

  it('does not probe under the first-use policy, without autotuning, or for small products', async () => {
    const gpu = await createWebGPUBackend((await gpuApi.requestAdapter())!, memoryStore());
    const small: MatmulClassInput = {
      batch: 1,
      m: 256,
      n: 256,
      k: 256,
      aLayout: 'k',
      bLayout: 'n',
    };
    const big: MatmulClassInput = { ...small, m: 512, n: 512, k: 512 };
    const fallback = defaultMatmulVariant(gpu.device.features.has('subgroups'));
    expect(chooseMatmulVariant(gpu.context, small)).toBe(fallback);
    gpu.context.autotune = false;
    expect(chooseMatmulVariant(gpu.context, big)).toBe(fallback);
    gpu.context.autotune = true;
    // Under 'first-use' (benchmarks) classes are tuned at once: no probe (asked directly, so no
    // class's full tuning run starts here).
    gpu.setTuningPolicy('first-use');
    expect(probedVariant(gpu.context, false, PROBE_TRIGGER_MACS)).toBeNull();
    await gpu.tuned();
    expect(probeLog(gpu.context)).toHaveLength(0);
    expect(gpu.context.tuner.get(PROBE_KEYS.plain)).toBeUndefined();
  }, 120_000);
});
