/**
 * The page's bundle carries no engine code: tensors, autograd, backends and memory run only in the
 * kernel worker (the layering in README.md). Checked on the production build these tests run
 * against: every script the page can load, i.e. every built script except the workers, is free of
 * strings that only engine modules contain, while the kernel worker has them all.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

const ASSETS = 'dist/assets';
/** Messages of the engine's tensor, op, autograd and device-memory modules. */
const ENGINE_ONLY = [
  'Expected all tensors to be on the same device',
  'This tensor was disposed and can no longer be used',
  'backward: createGraph (higher-order gradients) is not supported',
  'Out of memory on',
];

const scripts = readdirSync(ASSETS).filter((f) => f.endsWith('.js'));
const isWorker = (file: string) => /(^|\.)worker-/.test(file) || file.startsWith('worker-');

test('no engine code in the page bundle; all of it in the kernel worker', () => {
  const kernelWorker = scripts.filter((f) => f.startsWith('worker-'));
  expect(kernelWorker).toHaveLength(1);
  const workerText = readFileSync(join(ASSETS, kernelWorker[0]), 'utf8');
  for (const marker of ENGINE_ONLY) expect(workerText).toContain(marker);
  const page = scripts.filter((f) => !isWorker(f));
  expect(page.some((f) => f.startsWith('index-'))).toBe(true);
  for (const file of page) {
    const text = readFileSync(join(ASSETS, file), 'utf8');
    for (const marker of ENGINE_ONLY) {
      expect(text.includes(marker), `${file} contains engine code ("${marker}")`).toBe(false);
    }
  }
});
