/**
 * IPython's display protocol on the page: HTML from a Python cell or an imported `.ipynb` renders
 * sanitised (its `<script>` and `onerror=` never run), PNG outputs are `<img>`s, markdown renders,
 * SVG is sanitised into an image, and a Python cell's `display()` / last expression make them.
 */
import { expect, test, type Page } from '@playwright/test';
import { cell, expectCellDone, output, runCell, setCellSource, waitForKernelIdle } from './helpers';

const DOT_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const HOSTILE_HTML =
  '<b class="rich">bold</b><script>window.__pwned = "script"</script>' +
  '<img src="x" onerror="window.__pwned = \'onerror\'"><table><tr><td>cell</td></tr></table>';

async function expectInert(page: Page): Promise<void> {
  const area = page.getByTestId('cell-output');
  await expect(area.locator('script, [onerror], [onload], iframe, style')).toHaveCount(0);
  await page.waitForTimeout(300); // let a broken image fail, as it would fire onerror
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
}

test('an imported .ipynb shows its text/html sanitised, its PNG, markdown and SVG', async ({
  page,
}) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const display = (data: Record<string, unknown>, metadata: object = {}) => ({
    output_type: 'display_data',
    data,
    metadata,
  });
  const file = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    cells: [
      {
        cell_type: 'code',
        metadata: {},
        execution_count: 1,
        source: ['df'],
        outputs: [
          {
            output_type: 'execute_result',
            execution_count: 1,
            metadata: {},
            data: { 'text/html': [HOSTILE_HTML], 'text/plain': ['plain fallback'] },
          },
          display(
            { 'image/png': DOT_PNG, 'text/plain': ['<Image>'] },
            { 'image/png': { width: 12 } },
          ),
          display({ 'text/markdown': ['## Heading\n', '*em*'], 'text/plain': ['md'] }),
          display({
            'image/svg+xml': [
              '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">',
              '<script>window.__pwned = "svg"</script><circle r="4" onload="window.__pwned=1"/></svg>',
            ],
            'text/plain': ['svg'],
          }),
        ],
      },
    ],
  };
  await page.goto('/');
  await page.getByTestId('import-ipynb').setInputFiles({
    name: 'rich.ipynb',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(file)),
  });
  await expect(page.getByTestId('notebook')).toBeVisible();
  const area = output(page, 0);
  await expect(area.locator('.output-html b.rich')).toHaveText('bold');
  await expect(area.locator('.output-html td')).toHaveText('cell');
  await expect(area).not.toContainText('plain fallback');
  const png = area.locator('img.output-image[src^="data:image/png"]');
  await expect(png).toHaveAttribute('width', '12');
  await expect(area.locator('.output-markdown h2')).toHaveText('Heading');
  await expect(area.locator('.output-markdown em')).toHaveText('em');
  const svg = area.locator('img.output-image[src^="data:image/svg+xml"]');
  await expect(svg).toHaveCount(1);
  const svgText = await svg.evaluate((img) =>
    atob((img as HTMLImageElement).src.split(',')[1] ?? ''),
  );
  expect(svgText).toContain('<circle');
  expect(svgText).not.toMatch(/script|onload/);
  await expectInert(page);
  expect(dialogs).toEqual([]);
});

test("a Python cell's HTML, Image and Markdown render, and its script never runs", async ({
  page,
}) => {
  await page.goto('/');
  await page.getByTestId('new-python-notebook').click();
  await expect(page.getByTestId('notebook')).toBeVisible();
  await waitForKernelIdle(page);
  await setCellSource(
    page,
    0,
    [
      'import base64',
      'from IPython.display import HTML, Image, Markdown',
      `display(Image(data=base64.b64decode("${DOT_PNG}"), width=9))`,
      'display(Markdown("### From *Python*"))',
      `HTML(${JSON.stringify(HOSTILE_HTML)})`,
    ].join('\n'),
  );
  await runCell(page, 0);
  await expectCellDone(page, 0, 'done', 90_000);
  const area = output(page, 0);
  await expect(area.locator('img.output-image[src^="data:image/png"]')).toHaveAttribute(
    'width',
    '9',
  );
  await expect(area.locator('.output-markdown h3')).toHaveText('From Python');
  await expect(area.locator('.output-result .output-html b.rich')).toHaveText('bold');
  await expect(cell(page, 0)).toHaveAttribute('data-execution-count', '1');
  await expectInert(page);
});
