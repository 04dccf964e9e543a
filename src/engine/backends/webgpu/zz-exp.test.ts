import { it } from 'vitest';
import { nodeGpuBackend } from '../../testing/node-gpu';
import type { WebGPUBackend } from './index';
import { randomFloats, rng, Workspace } from './test-support';
import { gpuOf } from './gpu-buffer';

function matSource(wgx: number, wgy: number, form: string): string {
  // 8x8 tile as four mat4x4 blocks; column i of acc{r}{c} = out row (row0 + 4r + i), cols 4c..4c+3.
  return `
@group(0) @binding(1) var<storage, read_write> OUT: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> A: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> B: array<vec4<f32>>;
@compute @workgroup_size(${wgx}, ${wgy})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let M = P(0u); let N = P(1u); let K = P(2u);
  let col0 = gid.x * 8u; let row0 = gid.y * 8u;
  if (row0 >= M || col0 >= N) { return; }
  var acc00 = mat4x4<f32>(); var acc01 = mat4x4<f32>(); var acc10 = mat4x4<f32>(); var acc11 = mat4x4<f32>();
  let K4 = K >> 2u; let N4 = N >> 2u;
  let ar = vec4<u32>(row0 * K, (row0 + 1u) * K, (row0 + 2u) * K, (row0 + 3u) * K) >> vec4<u32>(2u);
  let ar2 = ar + vec4<u32>(K);
  var bi = col0 >> 2u;
  for (var k = 0u; k < K4; k++) {
    let a0 = mat4x4<f32>(A[ar.x + k], A[ar.y + k], A[ar.z + k], A[ar.w + k]);
    let a1 = mat4x4<f32>(A[ar2.x + k], A[ar2.y + k], A[ar2.z + k], A[ar2.w + k]);
    let b0 = mat4x4<f32>(B[bi], B[bi + N4], B[bi + 2u * N4], B[bi + 3u * N4]);
    let b1 = mat4x4<f32>(B[bi + 1u], B[bi + 1u + N4], B[bi + 1u + 2u * N4], B[bi + 1u + 3u * N4]);
    acc00 += b0 * a0; acc01 += b1 * a0; acc10 += b0 * a1; acc11 += b1 * a1;
    bi += 4u * N4;
  }
  for (var i = 0u; i < 4u; i++) {
    OUT[((row0 + i) * N + col0) / 4u] = acc00[i];
    OUT[((row0 + i) * N + col0) / 4u + 1u] = acc01[i];
    OUT[((row0 + 4u + i) * N + col0) / 4u] = acc10[i];
    OUT[((row0 + 4u + i) * N + col0) / 4u + 1u] = acc11[i];
  }
}`;
}

function loopSource(wgx: number, wgy: number): string {
  return `
@group(0) @binding(1) var<storage, read_write> OUT: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> A: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> B: array<vec4<f32>>;
@compute @workgroup_size(${wgx}, ${wgy})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let M = P(0u); let N = P(1u); let K = P(2u);
  let col0 = gid.x * 8u; let row0 = gid.y * 8u;
  if (row0 >= M || col0 >= N) { return; }
  var acc: array<vec4<f32>, 16>;
  let K4 = K >> 2u; let N4 = N >> 2u;
  var bi = col0 >> 2u;
  for (var k = 0u; k < K4; k++) {
    var b: array<vec4<f32>, 8>;
    for (var kk = 0u; kk < 4u; kk++) { b[kk * 2u] = B[bi + kk * N4]; b[kk * 2u + 1u] = B[bi + kk * N4 + 1u]; }
    for (var i = 0u; i < 8u; i++) {
      let a = A[(((row0 + i) * K) >> 2u) + k];
      for (var j = 0u; j < 2u; j++) {
        acc[i * 2u + j] = fma(vec4<f32>(a.x), b[j], fma(vec4<f32>(a.y), b[2u + j], fma(vec4<f32>(a.z), b[4u + j], fma(vec4<f32>(a.w), b[6u + j], acc[i * 2u + j]))));
      }
    }
    bi += 4u * N4;
  }
  for (var i = 0u; i < 8u; i++) {
    OUT[((row0 + i) * N + col0) / 4u] = acc[i * 2u];
    OUT[((row0 + i) * N + col0) / 4u + 1u] = acc[i * 2u + 1u];
  }
}`;
}

function source(tm: number, tn: number, wgx: number, wgy: number, form: string): string {
  if (form === 'mat') return matSource(wgx, wgy, form);
  if (form === 'loop') return loopSource(wgx, wgy);
  const L: string[] = [];
  L.push('fn dot4(acc: vec4<f32>, a: vec4<f32>, b0: vec4<f32>, b1: vec4<f32>, b2: vec4<f32>, b3: vec4<f32>) -> vec4<f32> { return fma(vec4<f32>(a.w), b3, fma(vec4<f32>(a.z), b2, fma(vec4<f32>(a.y), b1, fma(vec4<f32>(a.x), b0, acc)))); }');
  L.push('@group(0) @binding(1) var<storage, read_write> OUT: array<vec4<f32>>;');
  L.push('@group(0) @binding(2) var<storage, read> A: array<vec4<f32>>;');
  L.push('@group(0) @binding(3) var<storage, read> B: array<vec4<f32>>;');
  L.push(`@compute @workgroup_size(${wgx}, ${wgy})`);
  L.push('fn main(@builtin(global_invocation_id) gid: vec3<u32>) {');
  L.push('let M = P(0u); let N = P(1u); let K = P(2u);');
  L.push(`let col0 = gid.x * ${tn}u; let row0 = gid.y * ${tm}u;`);
  L.push('if (row0 >= M || col0 >= N) { return; }');
  const n4 = tn / 4;
  for (let i = 0; i < tm; i++) for (let j = 0; j < n4; j++) L.push(`var acc${i}_${j} = vec4<f32>();`);
  for (let i = 0; i < tm; i++) L.push(`let ar${i} = ((row0 + ${i}u) * K) >> 2u;`);
  L.push('let K4 = K >> 2u; let N4 = N >> 2u; var bi = col0 >> 2u;');
  L.push('for (var k = 0u; k < K4; k++) {');
  for (let i = 0; i < tm; i++) L.push(`  let a${i} = A[ar${i} + k];`);
  for (let kk = 0; kk < 4; kk++) for (let j = 0; j < n4; j++) L.push(`  let b${kk}_${j} = B[bi + ${kk}u * N4 + ${j}u];`);
  const comps = ['x', 'y', 'z', 'w'];
  for (let i = 0; i < tm; i++)
    for (let j = 0; j < n4; j++) {
      if (form === 'fn') {
        L.push(`  acc${i}_${j} = dot4(acc${i}_${j}, a${i}, b0_${j}, b1_${j}, b2_${j}, b3_${j});`);
      } else if (form === 'fma') {
        for (let kk = 0; kk < 4; kk++) L.push(`  acc${i}_${j} = fma(vec4<f32>(a${i}.${comps[kk]}), b${kk}_${j}, acc${i}_${j});`);
      } else {
        L.push(`  acc${i}_${j} += a${i}.x * b0_${j} + a${i}.y * b1_${j} + a${i}.z * b2_${j} + a${i}.w * b3_${j};`);
      }
    }
  L.push('  bi += 4u * N4;');
  L.push('}');
  for (let i = 0; i < tm; i++) for (let j = 0; j < n4; j++) L.push(`OUT[((row0 + ${i}u) * N + col0) / 4u + ${j}u] = acc${i}_${j};`);
  L.push('}');
  return L.join('\n');
}

it('exp', async () => {
  const gpu = (await nodeGpuBackend()) as WebGPUBackend;
  const ctx = gpu.context;
  const ws = new Workspace(gpu);
  const s = 512;
  const a = ws.view(randomFloats(s * s, rng(1)), [1, s, s]);
  const b = ws.view(randomFloats(s * s, rng(2)), [1, s, s]);
  const out = ws.output('float32', [1, s, s]);
  const configs = (process.env.CONFIGS ?? '4x4:8x8:add').split(',');
  for (const cfg of configs) {
    const [t, w, form] = cfg.split(':');
    const [tm, tn] = t.split('x').map(Number);
    const [wgx, wgy] = w.split('x').map(Number);
    const kernel = ctx.kernel('exp', cfg, 'wrr', source(tm, tn, wgx, wgy, form), () => ({}));
    const run = () => {
      ctx.queue.params().u32(0, s).u32(1, s).u32(2, s);
      ctx.run(kernel, [gpuOf(out), gpuOf(a.view), gpuOf(b.view)], [Math.ceil(s / tn / wgx), Math.ceil(s / tm / wgy), 1]);
    };
    run();
    await gpu.read(out.buffer, 'float32', 0, 1);
    const reps = 4;
    const t0 = performance.now();
    for (let r = 0; r < reps; r++) run();
    await gpu.read(out.buffer, 'float32', 0, 1);
    const ms = (performance.now() - t0) / reps;
    console.log(`${cfg}: ${ms.toFixed(1)} ms, ${((2 * s ** 3) / ms / 1e6).toFixed(2)} GFLOPS`);
  }
}, 600_000);
