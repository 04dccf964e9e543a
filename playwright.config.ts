/**
 * End-to-end tests drive Debian's Chromium against the production build (`vite build` +
 * `vite preview`). WebGPU runs on SwiftShader with the switches in shared/TESTING.md; the
 * `no-webgpu` project launches without them, so the adapter request answers null and the app
 * must fall back to the CPU backend.
 */
import { defineConfig } from '@playwright/test';
import switches from './scripts/chromium-switches.json' with { type: 'json' };

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// One list of Chromium switches (shared/TESTING.md) for the tests, the benchmark and the recorder.
const { quiet: quietSwitches, webgpu: webgpuSwitches } = switches;
const port = Number(process.env.E2E_PORT ?? 4317);

export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  // A bound on the whole suite (about 21 min on a 2-core host without a GPU, 2026-11-27), so
  // nothing can hold CI until its own limit.
  globalTimeout: 40 * 60_000,
  expect: { timeout: 20_000 },
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'webgpu',
      testIgnore: /no-webgpu\.spec\.ts/,
      use: { launchOptions: { executablePath, args: [...quietSwitches, ...webgpuSwitches] } },
    },
    {
      name: 'no-webgpu',
      testMatch: /no-webgpu\.spec\.ts/,
      use: { launchOptions: { executablePath, args: quietSwitches } },
    },
  ],
  webServer: {
    command: `npx vite preview --port ${port} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
