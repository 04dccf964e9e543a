/**
 * gpubook's inline matplotlib backend (_gpubook_matplotlib/) under Debian's CPython with real
 * matplotlib: cells run as the kernel runs them (testing/matplotlib_inline_cases.py), and each
 * figure's PNG is read here by an independent decoder (node:zlib, every PNG row filter). Pyodide in
 * Node has no matplotlib; the kernel's side (MPLBACKEND, the flush after every cell, the magics) is
 * tested in src/kernel/python/matplotlib-inline.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';

const PYTHON = '/usr/bin/python3';
const packages = fileURLToPath(new URL('.', import.meta.url)).replace(/\/$/, '');
const script = fileURLToPath(new URL('./testing/matplotlib_inline_cases.py', import.meta.url));
const probe = spawnSync(PYTHON, ['-c', 'import matplotlib, numpy'], { encoding: 'utf8' });

interface Output {
  data: Record<string, string>;
  metadata: Record<string, unknown>;
}
interface Cell {
  outputs: Output[];
  out: Record<string, string> | null;
  [extra: string]: unknown;
}

function runCases(): Record<string, Cell> {
  const result = spawnSync(PYTHON, [script, packages], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: packages },
  });
  if (result.status !== 0) throw new Error(`CPython failed:\n${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, Cell>;
}

interface Png {
  width: number;
  height: number;
  /** RGBA, 8 bits a channel, rows top to bottom. */
  pixels: Uint8Array;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** A PNG (8-bit RGBA, not interlaced: what Agg writes) decoded with zlib and PNG's row filters. */
function decodePng(base64: string): Png {
  const bytes = Buffer.from(base64, 'base64');
  expect([...bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  expect([bytes[24], bytes[25], bytes[28]]).toEqual([8, 6, 0]); // depth, RGBA, no interlace
  const idat: Buffer[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    if (bytes.subarray(at + 4, at + 8).toString('latin1') === 'IDAT') {
      idat.push(bytes.subarray(at + 8, at + 8 + length));
    }
    at += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  expect(raw.length).toBe(height * (stride + 1));
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const a = x >= 4 ? pixels[y * stride + x - 4] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const c = x >= 4 && y > 0 ? pixels[(y - 1) * stride + x - 4] : 0;
      const predicted = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      pixels[y * stride + x] = (raw[y * (stride + 1) + 1 + x] + predicted) & 0xff;
    }
  }
  return { width, height, pixels };
}

const pixel = (png: Png, x: number, y: number) => [
  ...png.pixels.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 4),
];

/** The one image a cell showed, checked to be a figure's display as IPython makes it. */
function onlyImage(cell: Cell, plain: string): Png {
  expect(cell.outputs).toHaveLength(1);
  expect(cell.outputs[0].data['text/plain']).toBe(plain);
  expect(Object.keys(cell.outputs[0].data).sort()).toEqual(['image/png', 'text/plain']);
  return decodePng(cell.outputs[0].data['image/png']);
}

describe.skipIf(probe.status !== 0)('inline matplotlib under CPython', () => {
  const r = probe.status === 0 ? runCases() : ({} as Record<string, Cell>);

  it('the flush does nothing and imports nothing when no cell used matplotlib', () => {
    expect(r.no_matplotlib.outputs).toEqual([]);
    expect(r.no_matplotlib.modules).toEqual(['_gpubook_matplotlib']);
  });

  it('a plotted figure becomes one PNG at the end of the cell, cropped tight as in Jupyter', () => {
    expect(r.line.backend).toEqual({
      'text/plain': "'module://_gpubook_matplotlib.backend_inline'",
    });
    expect(r.line.interactive).toEqual({ 'text/plain': 'True' });
    const png = onlyImage(r.line, '<Figure size 640x480 with 1 Axes>');
    // matplotlib's own savefig(bbox_inches="tight") of the same figure.
    const [width, height] = JSON.parse(
      (r.tight_reference.out?.['text/plain'] ?? '').replace('(', '[').replace(')', ']'),
    ) as number[];
    expect([png.width, png.height]).toEqual([width, height]);
    expect(width).toBeLessThan(640);
    expect(r.tight_reference.outputs).toEqual([]); // a closed figure is not shown
  });

  it('the next cell starts with no figure: a cell without plotting shows nothing', () => {
    expect(r.empty_cell).toEqual({ outputs: [], out: null });
    expect(r.ioff_next).toEqual({ outputs: [], out: null });
  });

  it('plt.show() shows mid-cell; the PNG is figsize × dpi without the tight crop', () => {
    const [first, second] = r.show_mid_cell.outputs;
    expect(r.show_mid_cell.outputs).toHaveLength(2);
    expect(r.show_mid_cell.shown_by_show).toBe(1);
    expect(first.data['text/plain']).toBe('<Figure size 640x480 with 1 Axes>');
    const a = decodePng(first.data['image/png']);
    expect([a.width, a.height]).toEqual([640, 480]); // 6.4 × 4.8 in at 100 dpi
    expect(second.data['text/plain']).toBe('<Figure size 150x100 with 1 Axes>');
    const b = decodePng(second.data['image/png']);
    expect([b.width, b.height]).toEqual([150, 100]); // 3 × 2 in at 50 dpi
  });

  it('a subplots(2, 3) grid is one image', () => {
    const png = onlyImage(r.grid, '<Figure size 640x480 with 6 Axes>');
    expect([png.width, png.height]).toEqual([640, 480]);
  });

  it('closed figures are not shown', () => {
    expect(r.closed.outputs).toEqual([]);
  });

  it("imshow of a numpy array draws its values through the colour map ('gray': v·255)", () => {
    const png = onlyImage(r.imshow, '<Figure size 200x200 with 1 Axes>');
    expect([png.width, png.height]).toEqual([200, 200]);
    // [[0, 1/3], [2/3, 1]] with nearest interpolation, the axes filling the figure: each value is
    // one 100×100 quadrant; the 256-entry gray map gives index floor(v·256) (clipped), level = index.
    const expected = [
      [50, 50, 0],
      [150, 50, Math.floor(256 / 3)],
      [50, 150, Math.floor((2 * 256) / 3)],
      [150, 150, 255],
    ];
    for (const [x, y, level] of expected)
      expect(pixel(png, x, y)).toEqual([level, level, level, 255]);
  });

  it('fig.savefig(buf, format="png") works, and the figure still shows at the end', () => {
    expect(r.savefig.out).toEqual({ 'text/plain': '((400, 300), True)' });
    const png = onlyImage(r.savefig, '<Figure size 400x300 with 1 Axes>');
    expect([png.width, png.height]).toEqual([400, 300]);
  });

  it('a figure that is the last value is Out (its PNG) and is not shown again', () => {
    expect(r.figure_as_out.outputs).toHaveLength(1); // the other open figure
    expect(r.figure_as_out.out?.['text/plain']).toBe('<Figure size 640x480 with 1 Axes>');
    const png = decodePng(r.figure_as_out.out?.['image/png'] ?? '');
    expect([png.width, png.height]).toEqual([640, 480]);
  });

  it("an empty figure is IPython's text only: <Figure size 640x480 with 0 Axes>", () => {
    expect(r.empty_figure.out).toEqual({ 'text/plain': '<Figure size 640x480 with 0 Axes>' });
    expect(r.empty_figure.outputs).toEqual([]);
    expect(r.empty_figure_shown.outputs).toEqual([
      { data: { 'text/plain': '<Figure size 640x480 with 0 Axes>' }, metadata: {} },
    ]);
  });

  it('fig.show() neither warns nor shows twice; after plt.ioff() only plt.show() shows', () => {
    expect(r.fig_show.outputs).toHaveLength(1);
    expect(r.ioff.outputs).toEqual([]);
    onlyImage(r.ioff_show, '<Figure size 640x480 with 1 Axes>');
  });

  it('a cell that raises still shows its figures', () => {
    onlyImage(r.raising, '<Figure size 640x480 with 1 Axes>');
  });

  it("retina is a PNG at twice the dpi with the figure's size in the metadata; svg is SVG", () => {
    const png = onlyImage(r.retina, '<Figure size 200x100 with 1 Axes>');
    expect([png.width, png.height]).toEqual([400, 200]);
    expect(r.retina.outputs[0].metadata).toEqual({ 'image/png': { width: 200, height: 100 } });
    expect(Object.keys(r.svg.outputs[0].data).sort()).toEqual(['image/svg+xml', 'text/plain']);
    expect(r.svg.outputs[0].data['image/svg+xml']).toMatch(/<svg[\s\S]*<\/svg>\s*$/);
  });

  it('%matplotlib inline brings the inline backend back after matplotlib.use("agg")', () => {
    expect(r.agg_backend.outputs).toEqual([]);
    expect(r.inline_again.out).toEqual({
      'text/plain': "'module://_gpubook_matplotlib.backend_inline'",
    });
    onlyImage(r.inline_again, '<Figure size 640x480 with 1 Axes>');
  });
});
