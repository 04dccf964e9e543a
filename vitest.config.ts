/**
 * Unit tests run in Node. WGSL kernels run for real through the `webgpu` package (Dawn), which
 * finds Chromium's SwiftShader Vulkan driver only if these variables are in the process
 * environment before Dawn loads — so they are set here, before any test file is imported.
 */
import { defineConfig } from 'vitest/config';

const swiftshaderIcd = '/usr/lib/chromium/vk_swiftshader_icd.json';
process.env.VK_ICD_FILENAMES ??= swiftshaderIcd;
process.env.XDG_RUNTIME_DIR ??= '/tmp';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'kernels/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
