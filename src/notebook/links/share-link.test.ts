import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createCell, createNotebook, type Notebook } from '../model';
import { loadIncomingNotebook, parseIncomingLink } from './incoming-link';
import { COMFORTABLE_LINK_CHARS } from './payload-codec';
import { buildShareLink } from './share-link';

function withOutputs(): Notebook {
  const code = createCell('code', 'const t = torch.tensor([1, 2]);\nt.sum()');
  code.executionCount = 4;
  code.outputs = [
    { kind: 'stream', name: 'stdout', text: 'hello\n' },
    { kind: 'result', executionCount: 4, data: { 'text/plain': 'tensor(3.)' } },
  ];
  return createNotebook({ title: 'To share', cells: [createCell('markdown', '# Sharing'), code] });
}

/** Decodes the link with Node's zlib, independently of our codec. */
function decodeWithNode(link: string): { cells: Record<string, unknown>[] } {
  const payload = new URL(link).hash.slice('#nb='.length);
  return JSON.parse(inflateRawSync(Buffer.from(payload, 'base64url')).toString('utf8'));
}

describe('share links', () => {
  it('leave outputs and execution counts out by default, and the app reads them back', async () => {
    const nb = withOutputs();
    const link = await buildShareLink(nb, {
      includeOutputs: false,
      appUrl: 'https://example.org/app/?nb=local1&size=test',
    });
    expect(link.url.startsWith('https://example.org/app/#nb=')).toBe(true);
    expect(link.length).toBe(link.url.length);
    expect(link.comfortable).toBe(true);
    const code = decodeWithNode(link.url).cells[1];
    expect(code).toMatchObject({ outputs: [], execution_count: null });

    const incoming = parseIncomingLink(new URL(link.url));
    expect(incoming?.kind).toBe('shared');
    const { notebook } = await loadIncomingNotebook(incoming!, { fetch, baseUrl: '/' });
    expect(notebook.title).toBe('To share');
    expect(notebook.cells.map((c) => c.source)).toEqual(nb.cells.map((c) => c.source));
    expect(notebook.cells[1].outputs).toEqual([]);
  });

  it('carry outputs when asked', async () => {
    const nb = withOutputs();
    const link = await buildShareLink(nb, { includeOutputs: true, appUrl: 'https://x.org/' });
    const code = decodeWithNode(link.url).cells[1];
    expect(code.execution_count).toBe(4);
    const { notebook } = await loadIncomingNotebook(parseIncomingLink(new URL(link.url))!, {
      fetch,
      baseUrl: '/',
    });
    expect(notebook.cells[1].outputs).toEqual(nb.cells[1].outputs);
  });

  it('flag links past the comfortable length', async () => {
    // Random text barely compresses, so the link grows with it.
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const text = Array.from({ length: 12_000 }, () =>
      String.fromCharCode(33 + Math.floor(random() * 90)),
    ).join('');
    const nb = createNotebook({ cells: [createCell('code', `// ${text}`)] });
    const link = await buildShareLink(nb, { includeOutputs: false, appUrl: 'https://x.org/' });
    expect(link.length).toBeGreaterThan(COMFORTABLE_LINK_CHARS);
    expect(link.comfortable).toBe(false);
  });
});
