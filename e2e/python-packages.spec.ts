/**
 * Python packages from the package base (the Settings dialog's URL), fetched by the page for the
 * kernel worker: CI cannot reach Pyodide's CDN, so this test builds a small pure-Python wheel,
 * serves it with a `pyodide-lock.json` from its own server on 127.0.0.1 (with the CORS and CORP
 * headers a cross-origin isolated page needs), and points Settings at it. One notebook, three
 * kernel starts: the first import (progress, then the module works), a restart (the wheel comes
 * from the page's cache: no second request for it), offline with a new kernel (still imports), a
 * wheel whose sha256 is not the lock's (ModuleNotFoundError saying so), an unreachable base.
 * Without a kernel: Settings' checks, and the home page's offline button filling the cache from a
 * second folder whose lock names stand-ins for numpy, pandas, matplotlib and scikit-learn.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';
import {
  addCodeCell,
  expectCellDone,
  output,
  runCell,
  setCellSource,
  waitForKernelIdle,
} from './helpers';

/** Pyodide's first load takes ~3 s on a quiet machine; a loaded CI machine gets more. */
const PYTHON_START_MS = 90_000;

/** PEP 427's RECORD hash: urlsafe base64 of the sha256, no padding. */
const recordHash = (bytes: Uint8Array) =>
  `sha256=${createHash('sha256').update(bytes).digest('base64url')}`;

/** A pure-Python wheel `NAME-VERSION-py3-none-any.whl` holding `NAME/__init__.py`. */
function buildWheel(name: string, version: string, init: string) {
  const distInfo = `${name}-${version}.dist-info`;
  const files: Record<string, Uint8Array> = {
    [`${name}/__init__.py`]: strToU8(init),
    [`${distInfo}/METADATA`]: strToU8(
      `Metadata-Version: 2.1\nName: ${name.replace(/_/g, '-')}\nVersion: ${version}\n`,
    ),
    [`${distInfo}/WHEEL`]: strToU8(
      'Wheel-Version: 1.0\nGenerator: gpubook-e2e\nRoot-Is-Purelib: true\nTag: py3-none-any\n',
    ),
  };
  const record = Object.entries(files)
    .map(([path, bytes]) => `${path},${recordHash(bytes)},${bytes.length}`)
    .concat(`${distInfo}/RECORD,,`)
    .join('\n');
  files[`${distInfo}/RECORD`] = strToU8(`${record}\n`);
  const bytes = zipSync(files);
  const fileName = `${name}-${version}-py3-none-any.whl`;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { name, version, fileName, bytes, sha256 };
}

type Wheel = ReturnType<typeof buildWheel>;

function lockEntry(wheel: Wheel, sha256 = wheel.sha256, depends: string[] = []) {
  return {
    name: wheel.name.replace(/_/g, '-'),
    version: wheel.version,
    file_name: wheel.fileName,
    install_dir: 'site',
    sha256,
    package_type: 'package',
    imports: [wheel.name],
    depends,
    unvendored_tests: false,
  };
}

const good = buildWheel(
  'gpubook_demo',
  '1.0.0',
  'VALUE = 42\n\ndef hello():\n    return "hello from the wheel"\n',
);
const tampered = buildWheel('gpubook_tampered', '1.0.0', 'VALUE = "should never load"\n');
const lock = JSON.stringify({
  info: { arch: 'wasm32', platform: 'emscripten', version: 'e2e', python: '3' },
  packages: {
    'gpubook-demo': lockEntry(good),
    // The lock names another hash than the file's: the page must refuse the bytes.
    'gpubook-tampered': lockEntry(tampered, '0'.repeat(64)),
  },
});

/**
 * A second folder standing in for a mirror, for the home page's offline button: stand-ins named
 * as the packages it offers (never imported), scikit-learn depending on joblib.
 */
const mirrorWheels = ['numpy', 'pandas', 'matplotlib', 'scikit_learn', 'joblib'].map((name, i) =>
  buildWheel(
    name,
    '0.0.1',
    `# a stand-in\nPADDING = ${JSON.stringify('x'.repeat(2000 * (i + 1)))}\n`,
  ),
);
const mirrorLock = JSON.stringify({
  packages: Object.fromEntries(
    mirrorWheels.map((wheel) => {
      const entry = lockEntry(wheel, wheel.sha256, wheel.name === 'scikit_learn' ? ['joblib'] : []);
      return [entry.name, entry];
    }),
  ),
});

const served = new Map<string, Uint8Array | string>([
  ['/pkgs/pyodide-lock.json', lock],
  [`/pkgs/${good.fileName}`, good.bytes],
  [`/pkgs/${tampered.fileName}`, tampered.bytes],
  ['/mirror/pyodide-lock.json', mirrorLock],
  ...mirrorWheels.map((w): [string, Uint8Array] => [`/mirror/${w.fileName}`, w.bytes]),
]);
const requests: string[] = [];
let server: Server;
let base: string;

/** A port nothing listens on: bound, noted and closed again. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(`${req.method} ${path}`);
    const headers = {
      // The app's page is cross-origin isolated (COEP require-corp): CORS it needs, CORP helps.
      'Access-Control-Allow-Origin': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'Cache-Control': 'no-store',
    };
    const body = served.get(path);
    if (body === undefined) return void res.writeHead(404, headers).end('not found');
    res.writeHead(200, {
      ...headers,
      'Content-Type': path.endsWith('.json') ? 'application/json' : 'application/octet-stream',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pkgs/`;
});

test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const fetchesOf = (fileName: string, folder = 'pkgs') =>
  requests.filter((r) => r === `GET /${folder}/${fileName}`).length;

/** Sets the package base in the Settings dialog (the only way it changes). */
async function setPackageBase(page: Page, url: string): Promise<void> {
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('package-base-input').fill(url);
  await dialog.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();
}

async function serviceWorkerInControl(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
      );
    }
  });
}

async function restartKernel(page: Page): Promise<void> {
  await page.getByTestId('restart-kernel').click();
  await waitForKernelIdle(page, PYTHON_START_MS);
}

const IMPORT_DEMO = 'import gpubook_demo\nprint(gpubook_demo.hello(), gpubook_demo.VALUE)';

test('Settings checks the package base and resets it to the CDN', async ({ page }) => {
  await page.goto('/');
  // The home page offers the common packages for offline use (sizes only where the CDN answers).
  const offline = page.getByTestId('offline-python-packages');
  await expect(offline).toContainText('numpy, pandas, matplotlib, scikit-learn');
  await expect(offline).toContainText(/files, (size unknown|[\d.]+ MB)/);
  expect(Number(await offline.getAttribute('data-files'))).toBeGreaterThan(4);
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  const input = dialog.getByTestId('package-base-input');
  await expect(input).toHaveValue(/^https:\/\/cdn\.jsdelivr\.net\/pyodide\/v[\d.]+\/full\/$/);
  const cdn = await input.inputValue();
  await input.fill('ftp://example.org/pyodide/');
  await expect(dialog.getByTestId('package-base-error')).toHaveText(/Only http/);
  await expect(dialog.getByTestId('settings-save')).toBeDisabled();
  await input.fill(base.slice(0, -1));
  await expect(dialog.getByTestId('package-base-error')).toHaveText(/end with "\/"/);
  await input.fill(base);
  await dialog.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();

  // Kept across a reload (localStorage), and a link's parameters do not change it.
  await page.goto(`/?packageBase=${encodeURIComponent('https://evil.example/')}`);
  await page.getByTestId('open-settings').click();
  await expect(input).toHaveValue(base);
  await dialog.getByTestId('package-base-reset').click();
  await expect(input).toHaveValue(cdn);
  await dialog.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem('gpubook.pythonPackageBase'))).toBeNull();
});

test('the home page keeps the common packages of the package base for offline use', async ({
  page,
}) => {
  await page.goto('/');
  await setPackageBase(page, base.replace('/pkgs/', '/mirror/'));
  const control = page.getByTestId('offline-python-packages');
  const total = mirrorWheels.reduce((sum, w) => sum + w.bytes.length, 0);
  // Sizes from HEAD requests; the closure brings joblib in.
  await expect(control).toHaveAttribute('data-total-bytes', String(total));
  await expect(control).toHaveAttribute('data-files', '5');
  await expect(control).toHaveAttribute('data-cached-files', '0');
  await expect(control).toContainText('numpy, pandas, matplotlib, scikit-learn: 5 files');
  await control.click();
  await expect(control).toHaveAttribute('data-state', 'done');
  await expect(control).toHaveAttribute('data-cached-files', '5');
  for (const wheel of mirrorWheels) expect(fetchesOf(wheel.fileName, 'mirror')).toBe(1);

  // What the kernel's imports will read: the lock and every wheel, byte for byte.
  const kept = await page.evaluate(async () => {
    const names = (await caches.keys()).filter((n) => n.startsWith('gpubook-python-packages-'));
    const cache = await caches.open(names[0]);
    const files: Record<string, number> = {};
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      files[new URL(request.url).pathname] = (await response!.arrayBuffer()).byteLength;
    }
    return files;
  });
  expect(kept).toEqual(
    Object.fromEntries([
      ['/mirror/pyodide-lock.json', mirrorLock.length],
      ...mirrorWheels.map((w) => [`/mirror/${w.fileName}`, w.bytes.length]),
    ]),
  );
});

test('a Python cell imports a wheel from the package base: cached, offline, verified', async ({
  page,
  context,
}) => {
  test.setTimeout(6 * 60_000);
  await page.goto('/');
  await serviceWorkerInControl(page);
  await setPackageBase(page, base);
  await page.getByTestId('new-python-notebook').click();
  await expect(page.getByTestId('notebook')).toBeVisible();
  await waitForKernelIdle(page);

  // First import: the progress display, then the module works; one request for the wheel.
  await setCellSource(page, 0, IMPORT_DEMO);
  await runCell(page, 0);
  await expectCellDone(page, 0, 'done', PYTHON_START_MS);
  await expect(output(page, 0)).toContainText(`Loaded gpubook-demo 1.0.0 (`);
  await expect(output(page, 0)).toContainText('hello from the wheel 42');
  expect(fetchesOf(good.fileName)).toBe(1);
  expect(fetchesOf('pyodide-lock.json')).toBeGreaterThan(0);

  // A new kernel imports it again from the page's cache: the wheel is not requested again.
  await restartKernel(page);
  await runCell(page, 0);
  await expectCellDone(page, 0, 'done', PYTHON_START_MS);
  await expect(output(page, 0)).toContainText('Loaded gpubook-demo 1.0.0 (from cache)');
  await expect(output(page, 0)).toContainText('hello from the wheel 42');
  expect(fetchesOf(good.fileName)).toBe(1);

  // Offline, a new kernel still imports it (the lock and the wheel from the cache).
  await context.setOffline(true);
  try {
    const before = requests.length;
    await restartKernel(page);
    await runCell(page, 0);
    await expectCellDone(page, 0, 'done', PYTHON_START_MS);
    await expect(output(page, 0)).toContainText('hello from the wheel 42');
    expect(requests.length).toBe(before);
  } finally {
    await context.setOffline(false);
  }

  // The lock's hash is not the file's: the import fails and says why; nothing loads.
  await addCodeCell(page, 'import gpubook_tampered');
  await runCell(page, 1);
  await expectCellDone(page, 1, 'error');
  await expect(output(page, 1)).toContainText('ModuleNotFoundError');
  await expect(output(page, 1)).toContainText(/integrity/i);
  expect(fetchesOf(tampered.fileName)).toBe(1);

  // A base nobody answers at: a package of Pyodide's own lock cannot be had, and the error
  // names the package, the URL tried and that the server is unreachable.
  const unreachable = `http://127.0.0.1:${await closedPort()}/pyodide/`;
  await setPackageBase(page, unreachable);
  await addCodeCell(page, 'import six');
  await runCell(page, 2);
  await expectCellDone(page, 2, 'error');
  await expect(output(page, 2)).toContainText('ModuleNotFoundError');
  await expect(output(page, 2)).toContainText(unreachable);
  await expect(output(page, 2)).toContainText(/unreachable/);
});
