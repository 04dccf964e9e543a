/**
 * What the tutorial specs share: a fixture of Python cells separated by "# %%" lines, opened as a
 * notebook from a link, trusted, run all, and each cell waited for in turn — a failing cell is
 * named with its first line and its traceback shown.
 */
import { readFileSync } from 'node:fs';
import { expect, type Locator, type Page } from '@playwright/test';
import { cell, output, waitForKernelIdle } from './helpers';
import { payloadFor } from './persistence-helpers';

/** Pyodide's first load (and a first dataset read): a loaded CI machine gets time. */
const FIRST_PYTHON_CELL_MS = 90_000;

/** The cells of `fixtures/<file>`: the text between "# %%" lines, without the leading comment. */
export function fixtureCells(file: string): string[] {
  const text = readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8');
  return text
    .split(/^# %%.*$/m)
    .slice(1)
    .map((source) => source.trim());
}

/**
 * Opens `sources` as a Python notebook titled `title`, runs every cell and waits for each to be
 * done without a traceback (`cellMs` each after the first). Returns the output of the first cell
 * whose source contains a marker.
 */
export async function runTutorialNotebook(
  page: Page,
  sources: readonly string[],
  title: string,
  cellMs: number,
): Promise<(marker: string) => Locator> {
  const notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
      gpubook: { title },
    },
    cells: sources.map((source) => ({
      cell_type: 'code',
      source,
      metadata: {},
      outputs: [],
      execution_count: null,
    })),
  };
  await page.goto(`/#nb=${payloadFor(notebook)}`);
  await expect(page.getByTestId('notebook')).toBeVisible();
  await waitForKernelIdle(page);
  await page.getByTestId('run-all').click();
  await page.getByTestId('trust-run').click();

  for (let i = 0; i < sources.length; i++) {
    await expect(cell(page, i)).toHaveAttribute('data-status', /^(done|error)$/, {
      timeout: i === 0 ? FIRST_PYTHON_CELL_MS : cellMs,
    });
    // On failure this names the cell and shows its traceback.
    await expect(output(page, i), `cell ${i + 1}: ${sources[i].split('\n')[0]}`).not.toContainText(
      'Traceback',
    );
    await expect(cell(page, i)).toHaveAttribute('data-status', 'done');
  }
  return (marker: string) =>
    output(
      page,
      sources.findIndex((s) => s.includes(marker)),
    );
}
