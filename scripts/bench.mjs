/**
 * `npm run bench`: builds the benchmark page, serves it, runs it in headless Chromium with
 * WebGPU on the machine's adapter (SwiftShader here), and writes bench/RESULTS.md with medians,
 * spreads, our ratios against TensorFlow.js and our fraction of the adapter's measured FMA peak.
 * Benchmarks are not tests: nothing here passes or fails on a time.
 */
import { execSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';

const port = 4399;
const engines = process.argv.find((a) => a.startsWith('--engines='))?.slice(10);

mkdirSync('bench/public/tfjs-wasm', { recursive: true });
const wasmDir = 'node_modules/@tensorflow/tfjs-backend-wasm/dist';
for (const file of readdirSync(wasmDir).filter((f) => f.endsWith('.wasm'))) {
  cpSync(`${wasmDir}/${file}`, `bench/public/tfjs-wasm/${file}`);
}
execSync('npx vite build --config bench/vite.config.ts', { stdio: 'inherit' });

const server = spawn(
  'npx',
  [
    'vite',
    'preview',
    '--config',
    'bench/vite.config.ts',
    '--port',
    String(port),
    '--strictPort',
    '--host',
    '127.0.0.1',
  ],
  { stdio: 'ignore' },
);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--enable-unsafe-webgpu',
    '--enable-features=Vulkan',
    '--use-vulkan=swiftshader',
    '--use-webgpu-adapter=swiftshader',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage();
  page.on('console', (m) => console.log(`[page] ${m.text()}`));
  for (let i = 0; ; i++) {
    try {
      await page.goto(`http://127.0.0.1:${port}/${engines ? `?engines=${engines}` : ''}`);
      break;
    } catch (error) {
      if (i > 50) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  let printed = 0;
  for (;;) {
    const state = await page.evaluate(() => window.__bench);
    for (const r of state.results.slice(printed))
      console.log(
        `${r.engine} ${r.name} ${JSON.stringify(r.params)} ${r.error ?? summarize(r.seconds)}`,
      );
    printed = state.results.length;
    if (state.done) {
      writeFileSync('bench/RESULTS.md', report(state));
      console.log('wrote bench/RESULTS.md');
      break;
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
} finally {
  await browser.close();
  server.kill();
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function summarize(seconds) {
  if (seconds.length === 0) return 'no timing';
  return `median ${(median(seconds) * 1000).toFixed(1)} ms (min ${(Math.min(...seconds) * 1000).toFixed(1)}, max ${(Math.max(...seconds) * 1000).toFixed(1)}, n=${seconds.length})`;
}

function report(state) {
  const key = (r) => `${r.name} ${Object.values(r.params).join('x')}`;
  const byCase = new Map();
  for (const r of state.results) {
    if (r.name === 'peak-fma') continue;
    if (!byCase.has(key(r))) byCase.set(key(r), {});
    byCase.get(key(r))[r.engine] = r;
  }
  const peak = state.results.find((r) => r.name === 'peak-fma' && r.seconds.length);
  const peakGflops = peak ? peak.flops / median(peak.seconds) / 1e9 : null;
  const gflops = (r) =>
    r && r.seconds.length && r.flops ? r.flops / median(r.seconds) / 1e9 : null;
  const fmt = (v, d = 2) => (v === null || v === undefined ? '—' : v.toFixed(d));
  const cell = (r) =>
    !r
      ? '—'
      : r.error
        ? `error: ${r.error.slice(0, 60)}`
        : `${fmt(median(r.seconds) * 1000, 1)} ms ±${fmt(((Math.max(...r.seconds) - Math.min(...r.seconds)) / 2) * 1000, 1)} (${fmt(gflops(r))} GFLOPS)`;
  const ratio = (a, b) => (gflops(a) && gflops(b) ? `${fmt(gflops(a) / gflops(b), 1)}×` : '—');
  const lines = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString()}. Adapter: **${state.adapter}**.`,
    `Measured FMA peak of the adapter (register-only vec4 kernel, same run): **${fmt(peakGflops)} GFLOPS**.`,
    'Medians over repeated runs after a warm-up; ± is half the min–max spread. Each repetition ends with',
    'the result read back to the host, for both engines alike.',
    '',
    '| case | ours WebGPU | TF.js WebGPU | ours / TF.js WebGPU | ours % of peak | ours CPU | TF.js wasm | TF.js cpu | ours CPU / wasm | ours CPU / TF.js cpu |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const [name, e] of byCase) {
    const pct =
      peakGflops && gflops(e['ours-webgpu'])
        ? `${fmt((100 * gflops(e['ours-webgpu'])) / peakGflops, 0)}%`
        : '—';
    lines.push(
      `| ${name} | ${cell(e['ours-webgpu'])} | ${cell(e['tfjs-webgpu'])} | ${ratio(e['ours-webgpu'], e['tfjs-webgpu'])} | ${pct} | ${cell(e['ours-cpu'])} | ${cell(e['tfjs-wasm'])} | ${cell(e['tfjs-cpu'])} | ${ratio(e['ours-cpu'], e['tfjs-wasm'])} | ${ratio(e['ours-cpu'], e['tfjs-cpu'])} |`,
    );
  }
  lines.push(
    '',
    "Shapes: matmul m×k×n. The chapters' shapes are the PyTorch chapter's [10000,200]×[200,10000] and the TF chapter's [10000,100]×[100,100000] scaled to n = 10000. Slow engines skip the largest shapes.",
    '',
  );
  return lines.join('\n');
}
