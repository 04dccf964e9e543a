import { it } from 'vitest';
import { nodeGpuBackend } from '../../testing/node-gpu';
import type { WebGPUBackend } from './index';
import { randomFloats, rng, Workspace } from './test-support';
import { gpuOf } from './gpu-buffer';
import { grid } from './context';

const scalar1 = `@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read> A: array<f32>;
@group(0) @binding(3) var<storage, read> B: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg); if (i >= P(0u)) { return; }
  OUT[i] = A[i + P(1u)] + B[i + P(2u)];
}`;
const scalarN = (n: number, wg: number) => `@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read> A: array<f32>;
@group(0) @binding(3) var<storage, read> B: array<f32>;
@compute @workgroup_size(${wg}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let base = (gid.x + gid.y * nwg.x * ${wg}u) * ${n}u; let total = P(0u);
  for (var j = 0u; j < ${n}u; j++) { let i = base + j; if (i < total) { OUT[i] = A[i + P(1u)] + B[i + P(2u)]; } }
}`;
const strided = (n: number, wg: number) => `@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read> A: array<f32>;
@group(0) @binding(3) var<storage, read> B: array<f32>;
@compute @workgroup_size(${wg}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let threads = nwg.x * ${wg}u; let total = P(0u);
  for (var i = gid.x; i < total; i += threads) { OUT[i] = A[i + P(1u)] + B[i + P(2u)]; }
}`;
const vec4k = `@group(0) @binding(1) var<storage, read_write> OUT: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> A: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> B: array<vec4<f32>>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg); if (i >= P(0u) / 4u) { return; }
  OUT[i] = A[i] + B[i];
}`;

it('exp2', async () => {
  const gpu = (await nodeGpuBackend()) as WebGPUBackend;
  const ctx = gpu.context;
  const ws = new Workspace(gpu);
  const n = 1 << 20;
  const a = ws.view(randomFloats(n, rng(1)), [n]);
  const b = ws.view(randomFloats(n, rng(2)), [n]);
  const y = ws.output('float32', [n]);
  const cases: [string, string, number][] = [
    ['1/thread', scalar1, Math.ceil(n / 64)],
    ['4/thread', scalarN(4, 64), Math.ceil(n / 256)],
    ['16/thread', scalarN(16, 64), Math.ceil(n / 1024)],
    ['4/thread wg256', scalarN(4, 256), Math.ceil(n / 1024)],
    ['vec4', vec4k, Math.ceil(n / 256)],
    ['grid-stride 256 groups', strided(1, 64), 256],
    ['grid-stride 64 groups', strided(1, 64), 64],
    ['grid-stride 16 groups', strided(1, 64), 16],
  ];
  for (const [label, src, groups] of cases) {
    const k = ctx.kernel('exp2', label, 'wrr', src, () => ({}));
    const run = () => {
      ctx.queue.params().u32(0, n).u32(1, 0).u32(2, 0);
      ctx.run(k, [gpuOf(y), gpuOf(a.view), gpuOf(b.view)], grid(groups));
    };
    run();
    await gpu.synchronize();
    const t0 = performance.now();
    for (let r = 0; r < 5; r++) run();
    await gpu.synchronize();
    const ms = (performance.now() - t0) / 5;
    console.log(`${label}: ${ms.toFixed(2)} ms, ${(n / ms / 1e3).toFixed(1)} M elements/s`);
  }
  for (let rep = 0; rep < 2; rep++) {
    gpu.binary('add', a.view, b.view, y);
    await gpu.synchronize();
    const t0 = performance.now();
    for (let r = 0; r < 5; r++) gpu.binary('add', a.view, b.view, y);
    await gpu.synchronize();
    const ms = (performance.now() - t0) / 5;
    console.log(`backend add: ${ms.toFixed(2)} ms, ${(n / ms / 1e3).toFixed(1)} M elements/s`);
  }
}, 600_000);
