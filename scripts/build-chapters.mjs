/**
 * Builds the bundled chapter notebooks: each `scripts/chapters/<id>.md` becomes
 * `public/notebooks/<id>.ipynb` (nbformat 4, gpubook kernelspec), plus `public/notebooks/index.json`
 * for the home page's gallery.
 *
 * Source format: a YAML-less header of `key: value` lines up to the first blank line (title,
 * summary, minutes; `language: python` and `edition: <id>` for the Python edition of chapter <id>),
 * then markdown; every fenced ```ts (or, in a Python chapter, ```python) block is one code cell and
 * the text between fences is one markdown cell (a line `<!-- cell -->` splits markdown into several
 * cells).
 * Outputs recorded from a real run (scripts/record-chapters.mjs) are kept for code cells whose
 * source did not change.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createHash } from 'node:crypto';

const SRC = 'scripts/chapters';
const OUT = 'public/notebooks';
mkdirSync(OUT, { recursive: true });

const lines = (text) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
const hash = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);

export function parseChapter(text) {
  const [head, ...rest] = text.split(/\n\n/);
  const meta = Object.fromEntries(
    head.split('\n').map((line) => {
      const i = line.indexOf(':');
      return [line.slice(0, i).trim(), line.slice(i + 1).trim()];
    }),
  );
  const body = rest.join('\n\n');
  const cells = [];
  const tag = meta.language === 'python' ? 'python' : 'ts';
  const fence = new RegExp('^```' + tag + '\\n([\\s\\S]*?)^```\\s*$', 'gm');
  let last = 0;
  const pushMarkdown = (md) => {
    for (const part of md.split(/^<!-- cell -->\s*$/m)) {
      const trimmed = part.trim();
      if (trimmed) cells.push({ type: 'markdown', source: trimmed });
    }
  };
  for (const match of body.matchAll(fence)) {
    pushMarkdown(body.slice(last, match.index));
    cells.push({ type: 'code', source: match[1].replace(/\n$/, '') });
    last = match.index + match[0].length;
  }
  pushMarkdown(body.slice(last));
  return { meta, cells };
}

function build(id) {
  const { meta, cells } = parseChapter(readFileSync(`${SRC}/${id}.md`, 'utf8'));
  const target = `${OUT}/${id}.ipynb`;
  const previous = existsSync(target) ? JSON.parse(readFileSync(target, 'utf8')) : null;
  const recorded = new Map(
    (previous?.cells ?? [])
      .filter((c) => c.cell_type === 'code')
      .map((c) => [c.metadata?.gpubook?.sourceHash, c]),
  );
  const notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      ...(meta.language === 'python'
        ? {
            kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
            language_info: { name: 'python' },
          }
        : {
            kernelspec: {
              name: 'gpubook',
              display_name: 'TypeScript (WebGPU)',
              language: 'typescript',
            },
            language_info: { name: 'typescript' },
          }),
      gpubook: {
        ...(previous?.metadata?.gpubook?.recorded
          ? { recorded: previous.metadata.gpubook.recorded }
          : {}),
        title: meta.title,
        chapter: id,
        summary: meta.summary,
        minutes: Number(meta.minutes),
      },
    },
    cells: cells.map((cell, i) => {
      const id_ = `${id}-${i}`;
      if (cell.type === 'markdown') {
        return { id: id_, cell_type: 'markdown', metadata: {}, source: lines(cell.source) };
      }
      const sourceHash = hash(cell.source);
      const old = recorded.get(sourceHash);
      return {
        id: id_,
        cell_type: 'code',
        metadata: { gpubook: { sourceHash } },
        execution_count: old?.execution_count ?? null,
        outputs: old?.outputs ?? [],
        source: lines(cell.source),
      };
    }),
  };
  writeFileSync(target, `${JSON.stringify(notebook, null, 1)}\n`);
  return {
    id,
    title: meta.title,
    summary: meta.summary,
    minutes: Number(meta.minutes),
    language: meta.language === 'python' ? 'python' : 'typescript',
    ...(meta.edition ? { edition: meta.edition } : {}),
  };
}

const ids = readdirSync(SRC)
  .filter((f) => f.endsWith('.md'))
  .map((f) => f.slice(0, -3))
  .sort();
const order = [
  'torch-gpu',
  'torch-gpu-py',
  'tf-single-gpu',
  'tf-single-gpu-py',
  'tf-multi-gpu',
  'tf-multi-gpu-py',
  'tiny-gpt',
  'tiny-gpt-py',
];
ids.sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
const index = ids.map(build);
writeFileSync(`${OUT}/index.json`, `${JSON.stringify({ chapters: index }, null, 2)}\n`);
console.log(`built ${index.length} chapters: ${ids.join(', ')}`);
