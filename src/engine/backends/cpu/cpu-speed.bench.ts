/**
 * Hand-run timings of the CPU backend (bench/NOTES.md section 9): not a test, it asserts nothing
 * and is not matched by vitest's `*.test.ts`. Run it with a config whose include matches it, e.g.
 *   echo "export default { test: { include: ['src/**\/*.bench.ts'], testTimeout: 1e7 } }" > c.mjs
 *   ONLY=engine,cnn npx vitest run --config c.mjs cpu-speed
 * ONLY picks sections (default: engine,cnn): peak, kernel, variants, engine, matmul, conv, cnn.
 * Times are wall-clock medians unless marked "cpu" (process CPU time: all threads, steadier on a
 * loaded machine for single-threaded code). Node 20 needs a flag for relaxed SIMD; set below.
 */
import { setFlagsFromString } from 'node:v8';
import { it } from 'vitest';
import type { View } from '../../backend';
import { mnistCnn } from '../../benchmark/workloads';
import { cpu } from '../../devices/registry';
import * as nn from '../../nn';
import { Adam } from '../../optim';
import * as ops from '../../ops';
import type { Tensor } from '../../tensor';
import { CpuBackend } from '.';
import { CpuBuffer } from './buffer';
import { col2imKernel, im2colKernel, maxPool2dBackwardKernel, maxPool2dKernel } from './conv';
import { gemmKernelBytes, type KernelShape } from './gemm-kernel';
import type { TileFn } from './gemm-pool';
import { Locals, forLoop, op, wasmModule } from './wasm-encoder';
import { WasmGemm, gemmWasm, wasmGemm } from './wasm-gemm';

setFlagsFromString('--experimental-wasm-relaxed-simd');

const sections = (process.env.ONLY ?? 'engine,cnn').split(',');
const section = (name: string) => (sections.includes(name) ? it : it.skip);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const gflops = (flops: number, ms: number) => (flops / ms / 1e6).toFixed(1);
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const randoms = (n: number) => Float32Array.from({ length: n }, () => Math.random() - 0.5);

/** `mr×nr u<unroll> f|p` (FMA or plain mul+add), optional `k<kc>` and `r<chunk rows>`. */
function parseVariant(v: string): { shape: KernelShape; chunkRows?: number } {
  const [, mr, nr, u, f, kc, rows] = /(\d+)x(\d+)u(\d+)([pf])(?:k(\d+))?(?:r(\d+))?/.exec(v)!;
  const shape = { mr: +mr, nr: +nr, unroll: +u, kc: kc ? +kc : 256, fma: f === 'f' };
  return { shape, chunkRows: rows ? +rows : undefined };
}

section('peak')('FMA peak: independent register-only chains (cpu)', () => {
  for (const fma of [false, true]) {
    const chains = 12;
    const locals = new Locals(1);
    const i = locals.i32();
    const acc = Array.from({ length: chains }, () => locals.v128());
    const [x, y] = [locals.v128(), locals.v128()];
    const body: number[] = [];
    for (const a of [...acc, x, y]) body.push(...op.v128Zero, ...op.set(a));
    const inner: number[] = [];
    for (const a of acc) {
      inner.push(...op.get(a), ...op.get(x));
      if (fma) inner.push(...op.get(y), ...op.f32x4RelaxedMadd);
      else inner.push(...op.f32x4Mul, ...op.get(y), ...op.f32x4Add);
      inner.push(...op.set(a));
    }
    body.push(...forLoop(i, op.i32(0), op.get(0), op.i32(1), inner));
    acc.forEach((a, t) => body.push(...op.i32(t * 16), ...op.get(a), ...op.v128Store(0)));
    const bytes = wasmModule({ shared: false, minPages: 1, maxPages: 1 }, [
      { exportName: 'run', params: 1, locals, body },
    ]);
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 1 });
    const run = (
      new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } }).exports as {
        run: (n: number) => void;
      }
    ).run;
    const n = 5_000_000;
    run(1000);
    const times = Array.from({ length: 5 }, () => {
      const t = process.cpuUsage();
      run(n);
      return cpuMs(t);
    });
    console.log(
      `${fma ? 'relaxed_madd' : 'mul + add'} peak: ${gflops(n * chains * 8, Math.min(...times))} GFLOPS cpu`,
    );
  }
});

section('kernel')('micro-kernel on operands in L1/L2 (cpu)', () => {
  const variants = (process.env.VARIANTS ?? '4x8u1f,4x8u2f,4x8u1p,6x8u1f,4x12u1f,3x16u1f').split(
    ',',
  );
  for (const v of variants) {
    const { shape } = parseVariant(v);
    const memory = new WebAssembly.Memory({ initial: 32, maximum: 32768 });
    const bytes = gemmKernelBytes(shape, { shared: false, minPages: 1, maxPages: 32768 });
    const tile = (
      new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } }).exports as {
        tile: TileFn;
      }
    ).tile;
    new Float32Array(memory.buffer).set(randoms(400_000));
    // 24 A panels (an L2 block) and 4 B panels of k = 256; C after them.
    const [mPanels, nPanels, k] = [24, 4, 256];
    const run = () => tile(0, 400_000, 800_000, mPanels, nPanels, k, nPanels * shape.nr * 4);
    for (let i = 0; i < 500; i++) run();
    const times = Array.from({ length: 5 }, () => {
      const t = process.cpuUsage();
      for (let i = 0; i < 5000; i++) run();
      return cpuMs(t);
    });
    const flops = 2 * mPanels * shape.mr * nPanels * shape.nr * k * 5000;
    console.log(`${v}: ${gflops(flops, Math.min(...times))} GFLOPS cpu`);
  }
});

section('variants')('GEMM kernel variants through the engine, single thread (cpu)', () => {
  const variants = (
    process.env.VARIANTS ??
    '4x8u1f,4x8u1p,4x8u2f,6x8u1f,4x12u1f,4x8u1fk128,4x8u1fk512,4x8u1fr48,4x8u1fr192'
  ).split(',');
  for (const s of (process.env.SIZES ?? '512,1024,2048').split(',').map(Number)) {
    const a = randoms(s * s);
    const c = new Float32Array(s * s);
    const engines = variants.map((v) => WasmGemm.create({ threads: false, ...parseVariant(v) })!);
    const times = variants.map(() => [] as number[]);
    for (let round = 0; round < 3; round++) {
      engines.forEach((engine, i) => {
        gemmWasm(a, 0, a, 0, c, 0, s, s, s, engine);
        const t = process.cpuUsage();
        gemmWasm(a, 0, a, 0, c, 0, s, s, s, engine);
        times[i].push(cpuMs(t));
      });
    }
    const row = variants.map((v, i) => `${v} ${gflops(2 * s ** 3, Math.min(...times[i]))}`);
    console.log(`${s}^3 GFLOPS cpu: ${row.join(' | ')}`);
  }
});

section('engine')('the engine: single thread vs helpers, and where the time goes', async () => {
  const single = WasmGemm.create({ threads: false })!;
  const threaded = WasmGemm.create({ threads: true })!;
  console.log(`fma ${single.shape.fma}, helpers ready ${await threaded.whenHelpersReady()}`);
  for (const s of (process.env.SIZES ?? '256,512,1024,2048').split(',').map(Number)) {
    const a = randoms(s * s);
    const c = new Float32Array(s * s);
    const wall = { single: [] as number[], threads: [] as number[] };
    const split = { pack: 0, kernel: 0, sink: 0 };
    for (let round = 0; round < (s >= 2048 ? 3 : 9); round++) {
      for (const [name, engine] of [
        ['single', single],
        ['threads', threaded],
      ] as const) {
        engine.timings = name === 'single' ? split : null;
        const t = performance.now();
        gemmWasm(a, 0, a, 0, c, 0, s, s, s, engine);
        wall[name].push(performance.now() - t);
      }
    }
    const n = wall.single.length;
    console.log(
      `${s}^3 GFLOPS: single ${gflops(2 * s ** 3, median(wall.single))}, ` +
        `threads ${gflops(2 * s ** 3, median(wall.threads))} (helper chunks so far ${threaded.helperChunks()}); ` +
        `single per call: pack ${(split.pack / n).toFixed(1)} ms, kernel ${(split.kernel / n).toFixed(1)} ms, sink ${(split.sink / n).toFixed(1)} ms`,
    );
  }
});

section('matmul')('ops.matmul on the CPU device, as the benchmark runs it', async () => {
  const on = { device: cpu() };
  const shapes = [
    [256, 256, 256],
    [512, 512, 512],
    [1024, 1024, 1024],
    [2048, 2048, 2048],
  ];
  if (process.env.BIG) shapes.push([10000, 200, 10000], [10000, 100, 10000]);
  for (const [m, k, n] of shapes) {
    const a = ops.rand([m, k], on).keep();
    const b = ops.rand([k, n], on).keep();
    const times: number[] = [];
    for (let r = 0; r < (m * n * k > 1e9 ? 3 : 6); r++) {
      const t = performance.now();
      const c = ops.matmul(a, b);
      const last = ops.select(c, 0, m - 1);
      await last.data();
      last.dispose();
      c.dispose();
      times.push(performance.now() - t);
    }
    console.log(`matmul ${m}x${k}x${n}: ${gflops(2 * m * k * n, median(times.slice(1)))} GFLOPS`);
    a.dispose();
    b.dispose();
  }
});

section('conv')('im2col, col2im and pooling kernels at the CNN shapes (cpu)', () => {
  const view = (shape: number[], fill = true): View => {
    const size = shape.reduce((x, y) => x * y, 1);
    const buffer = new CpuBuffer(size * 4);
    if (fill) buffer.f32.set(randoms(size));
    const strides = shape.map((_, d) => shape.slice(d + 1).reduce((x, y) => x * y, 1));
    return { buffer, dtype: 'float32', shape, strides, offset: 0 };
  };
  const conv = (n: number, c: number, h: number, k: number) => ({
    batch: n,
    inChannels: c,
    inHeight: h,
    inWidth: h,
    kernelHeight: k,
    kernelWidth: k,
    strideH: 1,
    strideW: 1,
    padH: 0,
    padW: 0,
    dilationH: 1,
    dilationW: 1,
    outHeight: h - k + 1,
    outWidth: h - k + 1,
  });
  const time = (name: string, f: () => void) => {
    f();
    const times = Array.from({ length: 7 }, () => {
      const t = process.cpuUsage();
      f();
      return cpuMs(t);
    });
    console.log(`${name}: ${Math.min(...times).toFixed(2)} ms cpu`);
  };
  const x2 = view([128, 32, 13, 13]);
  const cols2 = view([10368, 800], false);
  time('im2col [128,32,13,13] k5', () => im2colKernel(x2, conv(128, 32, 13, 5), cols2));
  time('col2im back to it', () => col2imKernel(cols2, conv(128, 32, 13, 5), x2));
  for (const [c, h, out, k, adaptive] of [
    [32, 26, 13, 2, false],
    [64, 9, 4, 2, false],
    [64, 4, 1, 0, true],
  ] as [number, number, number, number, boolean][]) {
    const g = {
      batch: 128,
      channels: c,
      inHeight: h,
      inWidth: h,
      outHeight: out,
      outWidth: out,
      kernelHeight: k,
      kernelWidth: k,
      strideH: k,
      strideW: k,
      padH: 0,
      padW: 0,
      adaptive,
    };
    const x = view([128, c, h, h]);
    const y = view([128, c, out, out], false);
    const idx: View = { ...view([128, c, out, out], false), dtype: 'int32' };
    time(`maxPool2d [128,${c},${h},${h}] -> ${out}`, () => maxPool2dKernel(x, g, y, idx));
    time(`  its backward`, () => maxPool2dBackwardKernel(y, idx, g, x));
  }
});

section('cnn')('MNIST CNN training step at batch 128 with Adam on the CPU device', async () => {
  type Loss = nn.Module & ((x: Tensor, y: Tensor) => Tensor);
  const on = { device: cpu() };
  const net = mnistCnn();
  net.to(cpu());
  const x = ops.randn([128, 1, 28, 28], on).keep();
  const y = ops.cast(ops.mul(ops.rand([128], on), 9.99), 'int32').keep();
  const loss = new nn.CrossEntropyLoss() as unknown as Loss;
  const optimizer = new Adam(net.parameters(), { lr: 1e-3 });
  const step = async () => {
    optimizer.zeroGrad();
    const value = loss(net(x), y);
    value.backward();
    optimizer.step();
    return value.item();
  };
  await step();
  // PROFILE=1: CPU time per backend method (and per GEMM shape), and the WASM engine's phases.
  const profile = new Map<string, { ms: number; count: number }>();
  const phases = { pack: 0, kernel: 0, sink: 0 };
  if (process.env.PROFILE) {
    wasmGemm()!.timings = phases;
    const proto = CpuBackend.prototype as unknown as Record<
      string,
      (...args: unknown[]) => unknown
    >;
    for (const name of Object.getOwnPropertyNames(CpuBackend.prototype)) {
      const original = proto[name];
      if (typeof original !== 'function' || name === 'constructor') continue;
      proto[name] = function (this: unknown, ...args: unknown[]) {
        const t = process.cpuUsage();
        const result = original.apply(this, args);
        const shapes = ['gemm', 'matmul', 'im2col', 'col2im'].includes(name)
          ? (args as { shape?: number[] }[])
              .filter((arg) => Array.isArray(arg?.shape))
              .map((arg) => arg.shape!.join('x'))
              .join(' ')
          : '';
        const entry = profile.get(`${name} ${shapes}`) ?? { ms: 0, count: 0 };
        entry.ms += cpuMs(t);
        entry.count++;
        profile.set(`${name} ${shapes}`, entry);
        return result;
      };
    }
  }
  const wall: number[] = [];
  const cpuTimes: number[] = [];
  let last = 0;
  for (let i = 0; i < Number(process.env.STEPS ?? 5); i++) {
    const t = performance.now();
    const u = process.cpuUsage();
    last = await step();
    cpuTimes.push(cpuMs(u));
    wall.push(performance.now() - t);
  }
  const steps = wall.length;
  if (process.env.PROFILE) {
    const per = (ms: number) => (ms / steps).toFixed(1);
    console.log(
      `WASM GEMM per step: pack ${per(phases.pack)} ms, kernel ${per(phases.kernel)} ms, sink ${per(phases.sink)} ms (wall)`,
    );
    for (const [key, { ms, count }] of [...profile]
      .sort((p, q) => q[1].ms - p[1].ms)
      .slice(0, 16)) {
      console.log(
        `${per(ms).padStart(7)} ms cpu/step ${String(count / steps).padStart(4)}x ${key}`,
      );
    }
  }
  const list = (xs: number[]) => xs.map((t) => t.toFixed(0)).join(' ');
  console.log(
    `CNN step: median ${median(wall).toFixed(0)} ms wall (${list(wall)}), ` +
      `${median(cpuTimes).toFixed(0)} ms cpu (${list(cpuTimes)}), last loss ${last.toFixed(4)}`,
  );
});
