/**
 * Unit tests run in Node. WGSL kernels run for real through the `webgpu` package (Dawn), which
 * finds Chromium's SwiftShader Vulkan driver only if these variables are in the process
 * environment before Dawn loads — so they are set here, before any test file is imported.
 *
 * Two projects: `unit` (everything else) and `python` (src/api/python: Pyodide over the engine).
 * Python reads GPU values synchronously through JavaScript Promise Integration (Pyodide's
 * `run_sync`), which Node 20 has only behind `--experimental-wasm-stack-switching`; only the
 * python project's workers get that flag (when this Node needs it), so the other tests run as
 * before.
 */
import { defineConfig } from 'vitest/config';
import { VitestWatchdog } from './scripts/vitest-watchdog.ts';

const swiftshaderIcd = '/usr/lib/chromium/vk_swiftshader_icd.json';
process.env.VK_ICD_FILENAMES ??= swiftshaderIcd;
process.env.XDG_RUNTIME_DIR ??= '/tmp';

const python = ['src/api/python/**/*.test.ts'];
// Newer Node versions ship JSPI (WebAssembly.Suspending) and may not know the old flag.
const jspi = 'Suspending' in WebAssembly ? [] : ['--experimental-wasm-stack-switching'];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two at a time even on a 2-core host (Vitest's default there is one): a file's imports and
    // its waits on the GPU leave a core idle, and the unit run took 7 min this way, 10.5 one by one.
    maxWorkers: 2,
    // A test blocked in synchronous code never times out; the watchdog names it and ends the run
    // (the longest test takes well under a minute).
    reporters: [
      'default',
      new VitestWatchdog({ stallMs: Number(process.env.VITEST_STALL_MS ?? 6 * 60_000) }),
    ],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'kernels/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: python,
        },
      },
      {
        extends: true,
        test: {
          name: 'python',
          include: python,
          execArgv: jspi,
        },
      },
    ],
  },
});
