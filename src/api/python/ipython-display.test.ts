/**
 * The display protocol's Python glue (IPython/core/formatters.py, IPython/display.py) under
 * Debian's CPython, where pandas is real: the bundles an object's `_repr_*_` methods make, and what
 * `display`, `update` and `clear_output` publish. The same files run in Pyodide in the kernel
 * (src/kernel/python/rich-display.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PYTHON = '/usr/bin/python3';
const packages = fileURLToPath(new URL('.', import.meta.url)).replace(/\/$/, '');
const script = fileURLToPath(new URL('./testing/ipython_display_cases.py', import.meta.url));
const probe = spawnSync(PYTHON, ['--version'], { encoding: 'utf8' });

type Bundle = Record<string, unknown>;
interface Case {
  data: Bundle;
  metadata: Record<string, unknown>;
  stderr: string;
  warnings: string[];
  missing?: string;
}

function runCases(): Record<string, Case> & { published: Record<string, unknown>[] } {
  const result = spawnSync(PYTHON, [script, packages], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: packages },
  });
  if (result.status !== 0) throw new Error(`CPython failed:\n${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, Case> & {
    published: Record<string, unknown>[];
  };
}

describe.skipIf(probe.status !== 0)('IPython display protocol under CPython', () => {
  const r = probe.status === 0 ? runCases() : ({} as ReturnType<typeof runCases>);

  it('a class with _repr_html_, _repr_png_ (with metadata) and _repr_json_ gives each, plus its repr', () => {
    expect(Object.keys(r.rich.data).sort()).toEqual([
      'application/json',
      'image/png',
      'text/html',
      'text/plain',
    ]);
    expect(r.rich.data['text/plain']).toBe('Rich()');
    expect(r.rich.data['image/png']).toMatch(/^iVBORw0KGgo/); // base64 of the PNG signature
    expect(r.rich.metadata).toEqual({ 'image/png': { width: 10 } });
    // _repr_markdown_ returned None: no such representation.
    expect(r.rich.data['text/markdown']).toBeUndefined();
  });

  it('_repr_mimebundle_ gives its types and metadata; other _repr_*_ fill in the rest; exclude applies', () => {
    expect(r.bundle.data['text/html']).toBe('<i>bundle</i>');
    expect(r.bundle.data['application/x-custom']).toBe('x');
    expect(r.bundle.data['text/latex']).toBe('$x^2$');
    expect(r.bundle.data['text/plain']).toMatch(/Bundle object/);
    expect(r.bundle.metadata).toEqual({ 'text/html': { isolated: true } });
    expect(r.bundle_excluding_html.data['text/html']).toBeUndefined();
    expect(r.bundle_excluding_html.metadata).toEqual({});
  });

  it('a raising _repr_html_ shows its traceback on stderr and the other types still show', () => {
    expect(r.raising.data).toEqual({ 'text/markdown': '*still shown*', 'text/plain': 'Raising()' });
    expect(r.raising.stderr).toMatch(
      /Traceback[\s\S]*in _repr_html_[\s\S]*ValueError: broken html/,
    );
    expect(r.raising.stderr).not.toMatch(/formatters\.py/);
    expect(r.wrong_type.data['text/html']).toBeUndefined();
    expect(r.wrong_type.warnings[0]).toMatch(/text\/html formatter returned invalid type int/);
    expect(Object.keys(r.class_itself.data)).toEqual(['text/plain']);
  });

  it('HTML, Markdown, Image, SVG, JSON, Pretty and Javascript bundles', () => {
    expect(r.html.data).toEqual({
      'text/html': '<p>hi</p>',
      'text/plain': '<IPython.core.display.HTML object>',
    });
    expect(r.markdown.data['text/markdown']).toBe('# Title');
    expect(r.image.data['image/png']).toBe(r.rich.data['image/png']);
    expect(r.image.metadata).toEqual({ 'image/png': { width: 20 } });
    expect(r.image_file.data['image/png']).toBe(r.rich.data['image/png']);
    expect(r.image_url.data['text/html']).toBe('<img src="https://example.org/a.png" width="5"/>');
    expect(r.svg.data['image/svg+xml']).toMatch(/^<svg /);
    expect(r.json.data['application/json']).toEqual({ k: [1, 2] });
    expect(r.json.metadata).toEqual({ 'application/json': { expanded: true, root: 'root' } });
    expect(r.pretty.data).toEqual({ 'text/plain': 'plain text' });
    expect(Object.keys(r.javascript.data)).toEqual(['text/plain']);
    expect(r.javascript.data['text/plain']).toMatch(/not run/);
  });

  it("a pandas DataFrame's bundle has text/html and text/plain", ({ skip }) => {
    if (r.dataframe.missing) skip(`pandas is not installed (apt-get install -y python3-pandas)`);
    expect(r.dataframe.data['text/html']).toMatch(/<table[\s\S]*<th>a<\/th>/);
    expect(r.dataframe.data['text/plain']).toMatch(/a\s+b/);
  });

  it('display with display_id returns a handle whose update replaces it; clear and clear_output', () => {
    const [first, second, rich, pretty, clear1, clear2, plain] = r.published;
    expect(first.data).toMatchObject({ 'text/html': '<b>1</b>' });
    expect(first.update).toBe(false);
    expect(typeof first.display_id).toBe('string');
    expect(second).toMatchObject({ display_id: first.display_id, update: true });
    expect(second.data).toMatchObject({ 'text/markdown': '**2**' });
    expect(rich.data).toMatchObject({ 'text/plain': 'Rich()' });
    expect(pretty.data).toEqual({ 'text/plain': 'two objects' });
    expect(clear1).toEqual({ clear: true });
    expect(clear2).toEqual({ clear: true });
    expect(plain.data).toEqual({ 'text/plain': "'plain'" });
  });
});
