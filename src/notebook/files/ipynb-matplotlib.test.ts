/**
 * A matplotlib figure as a Python cell shows it (the inline backend, src/api/python/
 * _gpubook_matplotlib/, run here under Debian's CPython with real matplotlib) is saved in `.ipynb`
 * as Jupyter saves it: a display_data with `image/png` as one base64 string and `text/plain`,
 * valid for nbformat, read back unchanged; a share link carries it only with outputs included.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CellOutput, MimeBundle, OutputMetadata } from '../../kernel/protocol';
import { decodePayload } from '../links/payload-codec';
import { buildShareLink, shareableIpynb } from '../links/share-link';
import {
  appendOutputs,
  createCell,
  createNotebook,
  finishExecution,
  startExecution,
} from '../model';
import { fromIpynb, toIpynb } from './ipynb';
import { nbformatErrors, nbformatMissing } from './testing/nbformat';

const PYTHON = '/usr/bin/python3';
const packages = fileURLToPath(new URL('../../api/python', import.meta.url));

// A cell's figures as the kernel shows them: the backend's end-of-cell flush, published as
// display bundles (one transparent figure, so it carries matplotlib-inline's needs_background).
const PROGRAM = `
import json
import _gpubook_matplotlib
from IPython.display import install
shown = []
install(lambda data, md, display_id, update: shown.append({"data": data, "metadata": md}), lambda wait: None)
_gpubook_matplotlib.install()
import matplotlib.pyplot as plt
plt.plot([3, 1, 2])
plt.figure(figsize=(2, 2), facecolor="none")
plt.plot([1, 2])
_gpubook_matplotlib.flush_figures()
print(json.dumps(shown))
`;

function figureOutputs(): CellOutput[] | string {
  const result = spawnSync(PYTHON, ['-c', PROGRAM], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: packages },
  });
  if (result.status !== 0) return `matplotlib under ${PYTHON} failed: ${result.stderr}`;
  const shown = JSON.parse(result.stdout) as Array<{ data: MimeBundle; metadata: OutputMetadata }>;
  // As the kernel adds them (python-cell.ts): no metadata key when there is none.
  return shown.map(({ data, metadata }) => ({
    kind: 'display',
    data,
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  }));
}

const probe = spawnSync(PYTHON, ['-c', 'import matplotlib'], { encoding: 'utf8' });

describe.skipIf(probe.status !== 0)('matplotlib figures in saved notebooks and links', () => {
  const outputs = probe.status === 0 ? figureOutputs() : [];
  if (typeof outputs === 'string') throw new Error(outputs);
  const cell = { ...createCell('code', 'plt.plot([3, 1, 2])'), id: 'fig' };
  let notebook = createNotebook({ title: 'Figures', cells: [cell], language: 'python' });
  notebook = startExecution(notebook, 'fig', 1);
  notebook = appendOutputs(notebook, 'fig', outputs);
  notebook = finishExecution(notebook, 'fig', 'done');

  it('saves each figure as display_data with image/png (one base64 string) and its text/plain', () => {
    const saved = toIpynb(notebook).cells[0] as { outputs: Array<Record<string, unknown>> };
    expect(saved.outputs).toHaveLength(2);
    const [first, second] = saved.outputs;
    expect(first.output_type).toBe('display_data');
    const data = first.data as Record<string, unknown>;
    expect(data['text/plain']).toEqual(['<Figure size 640x480 with 1 Axes>']);
    expect(typeof data['image/png']).toBe('string');
    expect(
      Buffer.from(data['image/png'] as string, 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect(second.metadata).toEqual({ needs_background: 'light' });
  });

  it('passes nbformat.validate and reads back with the same outputs', ({ skip }) => {
    const missing = nbformatMissing();
    if (missing) skip(missing);
    const text = JSON.stringify(toIpynb(notebook));
    expect(nbformatErrors(text)).toBeNull();
    expect(fromIpynb(JSON.parse(text)).cells[0].outputs).toEqual(outputs);
  });

  it('a share link carries the figures only when outputs are included', async () => {
    expect(shareableIpynb(notebook, false).cells[0]).toMatchObject({ outputs: [] });
    const link = await buildShareLink(notebook, {
      includeOutputs: true,
      appUrl: 'https://x.test/',
    });
    const payload = link.url.slice(link.url.indexOf('#nb=') + 4);
    const opened = fromIpynb(await decodePayload(payload));
    expect(opened.cells[0].outputs).toEqual(outputs);
    // Tens of KB of base64 PNG: past the length chat apps keep, which the share dialog says.
    expect(link.comfortable).toBe(false);
  });
});
