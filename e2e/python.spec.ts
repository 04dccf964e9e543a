/**
 * Python notebooks in the browser: Pyodide from our origin, loaded in the kernel worker on the
 * first Python cell. Cells print in order, end with an Out value, name their cell and line in
 * tracebacks, refuse modules gpubook does not ship, skip `!`/`%` lines with a note, stop on
 * interrupt without losing variables, and load offline from the service worker's precache.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  addCodeCell,
  cell,
  expectCellDone,
  output,
  runCell,
  setCellSource,
  waitForKernelIdle,
} from './helpers';
import { expectSaved, openNotebookId } from './persistence-helpers';

/** Pyodide's first load takes ~3 s on a quiet machine; a loaded CI machine gets more. */
const FIRST_PYTHON_CELL_MS = 90_000;

async function openNewPythonNotebook(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByTestId('new-python-notebook').click();
  await expect(page.getByTestId('notebook')).toBeVisible();
  await expect(page.getByTestId('notebook-language')).toHaveAttribute('data-language', 'python');
  await waitForKernelIdle(page);
}

/** Waits until the service worker is installed (everything precached) and controls the page. */
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

test('a new Python notebook prints, shows the last expression as Out and can block on a promise', async ({
  page,
}) => {
  await openNewPythonNotebook(page);
  await setCellSource(page, 0, 'print(1 + 1)\nx = 20\nx + 1');
  await runCell(page, 0);
  await expectCellDone(page, 0, 'done', FIRST_PYTHON_CELL_MS);
  await expect(output(page, 0)).toHaveText(/^2\s+21$/);
  await expect(cell(page, 0)).toHaveAttribute('data-execution-count', '1');
  // Variables live on in the next cell; a trailing semicolon hides the value, as in Jupyter.
  await addCodeCell(page, 'print(x * 2)\nx;');
  await runCell(page, 1);
  await expectCellDone(page, 1);
  await expect(output(page, 1)).toHaveText(/^40\s*$/);
  // Cells run under Pyodide's JSPI-aware entry point: Python can block on a JavaScript promise
  // (what our packages do to read GPU results back for `.item()` and `print(tensor)`).
  await addCodeCell(
    page,
    'import js\nfrom pyodide.ffi import run_sync\nrun_sync(js.Promise.resolve(5)) + 1',
  );
  await runCell(page, 2);
  await expectCellDone(page, 2);
  await expect(output(page, 2)).toHaveText('6');
});

test('Python cells reach the engine: torch on WebGPU, read back synchronously', async ({
  page,
}) => {
  await openNewPythonNotebook(page);
  await setCellSource(
    page,
    0,
    'import torch\nprint(torch.cuda.is_available())\n(torch.ones(2, 3, device="cuda") * 2).sum().item()',
  );
  await runCell(page, 0);
  await expectCellDone(page, 0, 'done', FIRST_PYTHON_CELL_MS);
  await expect(output(page, 0)).toHaveText(/^True\s+12\.0$/);
});

test('a Python traceback names the cell and line of the user code', async ({ page }) => {
  await openNewPythonNotebook(page);
  // The function's frame is in the cell that defined it (the editor indents after a body, so
  // nothing follows the body in that cell).
  await setCellSource(page, 0, 'def half(n):\n    return n / 0');
  await runCell(page, 0);
  await expectCellDone(page, 0, 'done', FIRST_PYTHON_CELL_MS);
  await addCodeCell(page, 'y = 4\nhalf(y)');
  await runCell(page, 1);
  await expectCellDone(page, 1, 'error');
  const text = await output(page, 1).innerText();
  expect(text).toContain('File "Cell In[2]", line 2, in <module>');
  expect(text).toContain('File "Cell In[1]", line 2, in half');
  expect(text).toContain('ZeroDivisionError: division by zero');
  expect(text).not.toMatch(/_pyodide|<gpubook/);
  // The error line shows once, not as a heading and again at the end.
  expect(text.match(/ZeroDivisionError/g)).toHaveLength(1);
});

test('importing a module in no package gives an ImportError that says what is available', async ({
  page,
}) => {
  await openNewPythonNotebook(page);
  await setCellSource(page, 0, 'import json\nimport no_such_module as m');
  await runCell(page, 0);
  await expectCellDone(page, 0, 'error', FIRST_PYTHON_CELL_MS);
  const text = await output(page, 0).innerText();
  expect(text).toContain('File "Cell In[1]", line 2');
  expect(text).toContain(
    "ModuleNotFoundError: No module named 'no_such_module': it is not among Pyodide's packages",
  );
  expect(text).toContain('Available now:');
  expect(text).not.toContain('micropip');
});

test("Pyodide's package loader asks only our origin, never a CDN", async ({ page, baseURL }) => {
  const foreign: string[] = [];
  const seen: string[] = [];
  page.context().on('request', (request) => {
    // The home page itself asks the package base for the offline button's sizes (HEAD, page-side,
    // see src/app/OfflinePythonPackages.tsx); this test is about what Pyodide in the worker asks.
    if (request.method() === 'HEAD') return;
    seen.push(request.url());
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.origin !== new URL(baseURL ?? '').origin) {
      foreign.push(request.url());
    }
  });
  await openNewPythonNotebook(page);
  await setCellSource(
    page,
    0,
    // One-line compound statements: the editor indents typed lines after a `:` itself.
    [
      'import pyodide_js',
      'try: await pyodide_js.loadPackage("numpy")',
      'except Exception as error: print("loadPackage failed:", type(error).__name__)',
    ].join('\n'),
  );
  await runCell(page, 0);
  await expect(cell(page, 0)).not.toHaveAttribute('data-status', /idle|queued|running/, {
    timeout: FIRST_PYTHON_CELL_MS,
  });
  await expect(output(page, 0)).not.toContainText('SyntaxError');
  // (`import numpy` goes through the page's package base instead: e2e/python-packages.spec.ts.)
  // The worker's requests are seen here (Pyodide's own files came through this listener)…
  expect(seen.some((url) => url.endsWith('/pyodide/python_stdlib.zip'))).toBe(true);
  // …and loadPackage asked our origin for the wheel, nobody else.
  expect(seen.some((url) => /\/pyodide\/numpy-[^/]*\.whl$/.test(url))).toBe(true);
  expect(foreign).toEqual([]);
});

test('an imported Jupyter notebook with a Python kernelspec runs its !pip cell as Python', async ({
  page,
}, testInfo) => {
  await page.goto('/');
  await page.getByTestId('import-ipynb').setInputFiles('e2e/fixtures/python-pip.ipynb');
  await expect(page.getByTestId('notebook')).toBeVisible();
  await expect(page.getByTestId('notebook-language')).toHaveAttribute('data-language', 'python');
  await waitForKernelIdle(page);
  await page.getByTestId('run-all').click();
  await expect(page.getByTestId('trust-dialog')).toBeVisible();
  await page.getByTestId('trust-run').click();
  await expectCellDone(page, 1, 'done', FIRST_PYTHON_CELL_MS);
  const text = await output(page, 1).innerText();
  // pip runs before the cell; torchkeras is one of gpubook's own packages.
  expect(text).toMatch(/^torchkeras is built into gpubook/);
  // `%matplotlib inline` sets up the inline backend, silently, as in Jupyter.
  expect(text).not.toContain('%matplotlib');
  expect(text).toContain('python 3');
  expect(text).toContain("'gpu-book'");

  // Export keeps Jupyter's kernelspec, so the file opens in Jupyter again.
  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-ipynb').click();
  const path = testInfo.outputPath('exported.ipynb');
  await (await downloading).saveAs(path);
  const file = JSON.parse(readFileSync(path, 'utf8'));
  expect(file.metadata.kernelspec).toEqual({
    name: 'python3',
    display_name: 'Python 3 (ipykernel)',
    language: 'python',
  });
  expect(file.metadata.language_info.name).toBe('python');
  // The code downloads as a Python script.
  const script = page.waitForEvent('download');
  await page.getByTestId('export-ts').click();
  expect((await script).suggestedFilename()).toMatch(/\.py$/);
});

test('interrupt stops `while True: pass` within 2 s keeping variables; restart gives a fresh Python', async ({
  page,
}) => {
  // Python starts twice here (the first cell, and again after the restart), each start allowed
  // FIRST_PYTHON_CELL_MS, so the test's own limit must hold both. With the default 120 s it did
  // not: on a loaded host (2 cores, load average 22) each start took 65–71 s, and the test ran out
  // of time in the second start while the interrupt itself took 13–424 ms (12 of 12, some sent
  // as soon as the cell showed running).
  test.setTimeout(2 * FIRST_PYTHON_CELL_MS + 60_000);
  await openNewPythonNotebook(page);
  await setCellSource(page, 0, 'kept = 41');
  await runCell(page, 0);
  await expectCellDone(page, 0, 'done', FIRST_PYTHON_CELL_MS);
  await addCodeCell(page, 'while True:\n    pass');
  await runCell(page, 1);
  await expect(cell(page, 1)).toHaveAttribute('data-status', 'running');
  await page.waitForTimeout(500);
  const started = Date.now();
  await page.getByTestId('interrupt').click();
  await expectCellDone(page, 1, 'error', 2_000);
  expect(Date.now() - started).toBeLessThan(2_000);
  await expect(output(page, 1)).toContainText('KeyboardInterrupt');
  // Not a restart: the interpreter and its variables are the same.
  await expect(page.getByText('Kernel restarted')).toHaveCount(0);
  await addCodeCell(page, 'kept + 1');
  await runCell(page, 2);
  await expectCellDone(page, 2);
  await expect(output(page, 2)).toHaveText('42');

  // A restart gives a fresh Python: the variable is gone.
  await page.getByTestId('restart-kernel').click();
  await waitForKernelIdle(page);
  await runCell(page, 2);
  await expectCellDone(page, 2, 'error', FIRST_PYTHON_CELL_MS);
  await expect(output(page, 2)).toContainText("NameError: name 'kept' is not defined");
});

test('interrupt stops a cell waiting on an await, keeping variables', async ({ page }) => {
  await openNewPythonNotebook(page);
  await setCellSource(
    page,
    0,
    'kept = 7\nimport asyncio\nprint("waiting")\nawait asyncio.sleep(60)',
  );
  await runCell(page, 0);
  // Python has loaded and reached the await (an interrupt while Pyodide still loads replaces
  // the worker, as for any cell that does not stop within a second).
  await expect(output(page, 0)).toContainText('waiting', { timeout: FIRST_PYTHON_CELL_MS });
  await page.waitForTimeout(300);
  const started = Date.now();
  await page.getByTestId('interrupt').click();
  await expectCellDone(page, 0, 'error', 2_000);
  expect(Date.now() - started).toBeLessThan(2_000);
  await expect(output(page, 0)).toContainText('KeyboardInterrupt');
  await expect(page.getByText('Kernel restarted')).toHaveCount(0);
  await addCodeCell(page, 'kept * 6');
  await runCell(page, 1);
  await expectCellDone(page, 1);
  await expect(output(page, 1)).toHaveText('42');
});

test('interrupt stops a loop that keeps blocking on promises with run_sync', async ({ page }) => {
  // A training loop reading losses back spends much of its time suspended in run_sync: the
  // interrupt often arrives there, and must still end the cell without replacing the worker.
  await openNewPythonNotebook(page);
  await setCellSource(
    page,
    0,
    [
      'import js',
      'from pyodide.ffi import run_sync',
      'later = js.Function.new("ms", "return new Promise((ok) => setTimeout(() => ok(1), ms))")',
      'steps = 0',
      'print("looping")',
      'while True: steps += run_sync(later(20))',
    ].join('\n'),
  );
  await runCell(page, 0);
  await expect(output(page, 0)).toContainText('looping', { timeout: FIRST_PYTHON_CELL_MS });
  await page.waitForTimeout(300);
  const started = Date.now();
  await page.getByTestId('interrupt').click();
  await expectCellDone(page, 0, 'error', 2_000);
  expect(Date.now() - started).toBeLessThan(2_000);
  await expect(output(page, 0)).toContainText('KeyboardInterrupt');
  await expect(page.getByText('Kernel restarted')).toHaveCount(0);
  await addCodeCell(page, 'steps > 0');
  await runCell(page, 1);
  await expectCellDone(page, 1);
  await expect(output(page, 1)).toHaveText('True');
});

test('Python loads offline from the precache', async ({ page, context }) => {
  await openNewPythonNotebook(page);
  const id = await openNotebookId(page);
  await setCellSource(page, 0, 'import sys\nprint("offline", sys.version_info.major)');
  await expectSaved(page, id, 0, 'import sys\nprint("offline", sys.version_info.major)');
  await serviceWorkerInControl(page);
  // Python has not run in this page yet: everything it needs must come from the precache.
  const precached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    return urls.filter((url) => url.includes('/pyodide/')).map((url) => new URL(url).pathname);
  });
  for (const file of [
    'pyodide.mjs',
    'pyodide.asm.mjs',
    'pyodide.asm.wasm',
    'python_stdlib.zip',
    'pyodide-lock.json',
  ]) {
    expect(precached.some((path) => path.startsWith(`/pyodide/${file}`))).toBe(true);
  }

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('notebook')).toHaveAttribute('data-notebook-id', id);
  await waitForKernelIdle(page);
  await runCell(page, 0);
  await expectCellDone(page, 0, 'done', FIRST_PYTHON_CELL_MS);
  await expect(output(page, 0)).toHaveText('offline 3');
});

test('a shared Python notebook opens as Python and runs after trust', async ({ page, context }) => {
  await openNewPythonNotebook(page);
  await setCellSource(page, 0, 'print("shared", 6 * 7)');
  await page.getByTestId('share-button').click();
  const linkInput = page.getByTestId('share-link');
  await expect(linkInput).toHaveValue(/#nb=/);
  const link = await linkInput.inputValue();

  const reader = await context.newPage();
  await reader.goto(link);
  await expect(reader.getByTestId('notebook')).toBeVisible();
  await expect(reader.getByTestId('notebook-language')).toHaveAttribute('data-language', 'python');
  await waitForKernelIdle(reader);
  await reader.getByTestId('run-all').click();
  await reader.getByTestId('trust-run').click();
  await expectCellDone(reader, 0, 'done', FIRST_PYTHON_CELL_MS);
  await expect(output(reader, 0)).toHaveText('shared 42');
});
