/**
 * Reads and writes nbformat 4 `.ipynb` JSON (shared/TESTING.md): the same notebook opens in
 * Jupyter and in gpubook. Reading validates as it goes and names the first thing that is wrong.
 * Rich outputs (IPython's display protocol: HTML, markdown, SVG, PNG, JPEG, LaTeX, JSON) keep every
 * MIME type of their bundle and their per-type metadata both ways; markup is only ever shown
 * sanitised (src/notebook/security/sanitize.ts).
 *
 * Outputs are written as Jupyter writes them, so `nbformat.validate` accepts every export: text
 * types (and SVG) as lists of lines, JSON types as JSON, execution counts integers or null. What
 * nbformat has no field for lives under `gpubook` in metadata: a live display's id goes in its
 * output's `metadata.gpubook.display_id` (the messaging protocol's `transient` is not part of
 * the file format; files written before this still read). A chart (`CHART_MIME`) is saved with
 * an `image/svg+xml` picture of itself beside its JSON, so Jupyter and GitHub show the curves;
 * reading drops that picture again, since the app draws the chart from the JSON.
 */
import { chartSvg } from '../../kernel/outputs/chart-svg';
import { isChartData } from '../../kernel/outputs/chart-data';
import {
  CHART_MIME,
  type CellOutput,
  type MimeBundle,
  type OutputMetadata,
} from '../../kernel/protocol';
import {
  createNotebook,
  GPUBOOK_KERNELSPEC,
  metadataLanguage,
  PYTHON_KERNELSPEC,
  type Cell,
  type Notebook,
  type NotebookMetadata,
} from '../model';
import { newId } from '../ids';

export class NotebookFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotebookFileError';
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface IpynbNotebook {
  nbformat: 4;
  nbformat_minor: number;
  metadata: JsonObject;
  cells: JsonObject[];
}

/** Where we keep what nbformat has no field for (the title, the device settings). */
const OWN_METADATA = 'gpubook';

/** The notebook's own metadata besides the title (e.g. `devices`, the device panel's settings). */
function ownMetadata(notebook: Notebook): JsonObject {
  const own = notebook.metadata[OWN_METADATA];
  return own !== null && typeof own === 'object' && !Array.isArray(own) ? (own as JsonObject) : {};
}

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The kernelspec and language_info a notebook is saved with. TypeScript: always ours (TESTING.md).
 * Python: the notebook's own (a Jupyter or Colab file keeps what it came with, so it opens there
 * again), completed where a field is missing.
 */
function languageMetadata(metadata: Record<string, unknown>): NotebookMetadata {
  if (metadataLanguage(metadata) !== 'python') {
    return { kernelspec: { ...GPUBOOK_KERNELSPEC }, language_info: { name: 'typescript' } };
  }
  const kernelspec = isJsonObject(metadata.kernelspec) ? metadata.kernelspec : {};
  const languageInfo = isJsonObject(metadata.language_info) ? metadata.language_info : {};
  return {
    kernelspec: {
      ...PYTHON_KERNELSPEC,
      ...(kernelspec as Partial<NotebookMetadata['kernelspec']>),
    },
    language_info: { ...languageInfo, name: 'python' },
  };
}

export interface IpynbWriteOptions {
  /**
   * Save each chart with its `image/svg+xml` picture (default true). Share links leave it out:
   * only gpubook reads them, and it draws charts from their JSON.
   */
  chartPictures?: boolean;
}

export function toIpynb(notebook: Notebook, options: IpynbWriteOptions = {}): IpynbNotebook {
  const pictures = options.chartPictures ?? true;
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      ...(notebook.metadata as JsonObject),
      ...(languageMetadata(notebook.metadata) as JsonObject),
      [OWN_METADATA]: { ...ownMetadata(notebook), title: notebook.title },
    },
    cells: notebook.cells.map((cell) => cellToIpynb(cell, pictures)),
  };
}

function cellToIpynb(cell: Cell, pictures: boolean): JsonObject {
  const common = {
    id: cell.id,
    cell_type: cell.type,
    metadata: cell.metadata as JsonObject,
    source: splitLines(cell.source),
  };
  if (cell.type === 'markdown') return common;
  return {
    ...common,
    execution_count: executionCount(cell.executionCount),
    outputs: cell.outputs.map((output) => outputToIpynb(output, pictures)),
  };
}

/** nbformat's execution counts: a non-negative integer, or null (not run). */
function executionCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

function outputToIpynb(output: CellOutput, pictures: boolean): JsonObject {
  switch (output.kind) {
    case 'stream':
      return {
        output_type: 'stream',
        name: output.name === 'stderr' ? 'stderr' : 'stdout',
        text: splitLines(String(output.text)),
      };
    case 'result':
      return {
        output_type: 'execute_result',
        execution_count: executionCount(output.executionCount),
        data: bundleToIpynb(output.data, pictures),
        metadata: { ...(output.metadata as JsonObject | undefined) },
      };
    case 'display':
      return {
        output_type: 'display_data',
        data: bundleToIpynb(output.data, pictures),
        metadata: {
          ...(output.metadata as JsonObject | undefined),
          ...(output.displayId ? { [OWN_METADATA]: { display_id: output.displayId } } : {}),
        },
      };
    case 'error':
      return {
        output_type: 'error',
        ename: String(output.ename),
        evalue: String(output.evalue),
        traceback: Array.isArray(output.traceback) ? output.traceback.map(String) : [],
      };
  }
}

/** MIME types whose values nbformat keeps as JSON; every other value is a (multi-line) string. */
const JSON_MIME = /^application\/(.*\+)?json$/;
/** Besides `text/*`, the types Jupyter writes as lists of lines (nbformat's `_non_text_split_mimes`). */
const SPLIT_MIMES = new Set(['image/svg+xml', 'application/javascript']);

function bundleToIpynb(bundle: MimeBundle, pictures: boolean): JsonObject {
  const data: JsonObject = {};
  for (const [mime, value] of Object.entries(bundle)) {
    if (value === undefined) continue;
    if (JSON_MIME.test(mime)) {
      data[mime] = value as Json;
      continue;
    }
    const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
    data[mime] = mime.startsWith('text/') || SPLIT_MIMES.has(mime) ? splitLines(text) : text;
  }
  const chart = bundle[CHART_MIME];
  if (pictures && data['image/svg+xml'] === undefined && isChartData(chart)) {
    data['image/svg+xml'] = splitLines(chartSvg(chart));
  }
  return data;
}

/** nbformat stores multi-line strings as lists of lines, each keeping its newline. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

// ---------------------------------------------------------------------------------------------

export function fromIpynb(value: unknown, fallbackTitle = 'Imported notebook'): Notebook {
  const nb = expectObject(value, 'The file is not a notebook: expected a JSON object');
  if (nb.nbformat !== 4) {
    throw new NotebookFileError(
      `Only nbformat 4 notebooks can be opened (this file says nbformat ${JSON.stringify(nb.nbformat ?? null)}).`,
    );
  }
  if (!Array.isArray(nb.cells)) throw new NotebookFileError('The notebook has no "cells" list.');
  const metadata =
    nb.metadata === undefined
      ? {}
      : expectObject(nb.metadata, 'Notebook "metadata" must be an object');
  const { [OWN_METADATA]: ownValue, ...foreign } = metadata;
  const own = (
    ownValue !== null && typeof ownValue === 'object' && !Array.isArray(ownValue) ? ownValue : {}
  ) as JsonObject;
  const title = typeof own.title === 'string' && own.title.trim() ? own.title : fallbackTitle;
  const { title: _title, ...ownRest } = own;
  const seenIds = new Set<string>();
  const cells = nb.cells.map((cell, i) => cellFromIpynb(cell, i + 1, seenIds));
  const language = metadataLanguage(foreign);
  const notebook = createNotebook({ title, cells, language });
  return {
    ...notebook,
    metadata: {
      ...(foreign as Record<string, unknown>),
      ...languageMetadata(foreign),
      ...(Object.keys(ownRest).length > 0 ? { [OWN_METADATA]: ownRest } : {}),
    },
  };
}

function cellFromIpynb(value: Json, position: number, seenIds: Set<string>): Cell {
  const where = `Cell ${position}`;
  const cell = expectObject(value, `${where} is not an object`);
  const type = cell.cell_type;
  if (type !== 'code' && type !== 'markdown' && type !== 'raw') {
    throw new NotebookFileError(
      `${where} has an unknown cell_type ${JSON.stringify(type ?? null)}.`,
    );
  }
  let id = typeof cell.id === 'string' && /^[a-zA-Z0-9_-]{1,64}$/.test(cell.id) ? cell.id : newId();
  if (seenIds.has(id)) id = newId();
  seenIds.add(id);
  const metadata =
    cell.metadata === undefined
      ? {}
      : expectObject(cell.metadata, `${where}: "metadata" must be an object`);
  const source = joinText(cell.source, `${where}: "source"`);
  if (type !== 'code') {
    return {
      id,
      type: 'markdown',
      source,
      outputs: [],
      executionCount: null,
      status: 'idle',
      metadata,
    };
  }
  const outputs = cell.outputs === undefined ? [] : cell.outputs;
  if (!Array.isArray(outputs)) throw new NotebookFileError(`${where}: "outputs" must be a list.`);
  const count = cell.execution_count;
  return {
    id,
    type: 'code',
    source,
    outputs: outputs.map((o, j) => outputFromIpynb(o, `${where}, output ${j + 1}`)),
    executionCount: typeof count === 'number' && Number.isInteger(count) ? count : null,
    status: 'idle',
    metadata,
  };
}

function outputFromIpynb(value: Json, where: string): CellOutput {
  const output = expectObject(value, `${where} is not an object`);
  switch (output.output_type) {
    case 'stream':
      return {
        kind: 'stream',
        name: output.name === 'stderr' ? 'stderr' : 'stdout',
        text: joinText(output.text, `${where}: "text"`),
      };
    case 'execute_result':
      return {
        kind: 'result',
        executionCount: typeof output.execution_count === 'number' ? output.execution_count : 0,
        data: bundleFromIpynb(output.data, where),
        ...mimeMetadataOf(output),
      };
    case 'display_data': {
      const displayId = displayIdOf(output);
      return {
        kind: 'display',
        data: bundleFromIpynb(output.data, where),
        ...(displayId ? { displayId } : {}),
        ...mimeMetadataOf(output),
      };
    }
    case 'error':
      return {
        kind: 'error',
        ename: String(output.ename ?? 'Error'),
        evalue: String(output.evalue ?? ''),
        traceback: Array.isArray(output.traceback) ? output.traceback.map(String) : [],
      };
    default:
      throw new NotebookFileError(
        `${where} has an unknown output_type ${JSON.stringify(output.output_type ?? null)}.`,
      );
  }
}

/**
 * A display's id: `metadata.gpubook.display_id` as we write it, or `transient.display_id` as
 * gpubook wrote it before (and the messaging protocol carries it).
 */
function displayIdOf(output: JsonObject): string | undefined {
  const own = isJsonObject(output.metadata) ? output.metadata[OWN_METADATA] : undefined;
  const ours = isJsonObject(own) ? own.display_id : undefined;
  const older = isJsonObject(output.transient) ? output.transient.display_id : undefined;
  const id = ours ?? older;
  return typeof id === 'string' && id ? id : undefined;
}

/** An output's per-MIME metadata (`{"image/png": {"width": 100}}`), without our own key. */
function mimeMetadataOf(output: JsonObject): { metadata?: OutputMetadata } {
  if (!isJsonObject(output.metadata)) return {};
  const { [OWN_METADATA]: _own, ...rest } = output.metadata;
  return Object.keys(rest).length > 0 ? { metadata: rest } : {};
}

/** Text types of IPython's display protocol, kept as text (shown sanitised, never run). */
const TEXT_MIMES = new Set([
  'text/html',
  'text/markdown',
  'text/latex',
  'image/png',
  'image/jpeg',
  'image/svg+xml',
]);

/** Keeps the MIME types we render (markup only ever shown sanitised) and our own types. */
function bundleFromIpynb(value: Json | undefined, where: string): MimeBundle {
  const data = expectObject(value ?? {}, `${where}: "data" must be an object`);
  const bundle: MimeBundle = {
    'text/plain':
      data['text/plain'] === undefined ? '' : joinText(data['text/plain'], `${where}: text/plain`),
  };
  for (const [mime, content] of Object.entries(data)) {
    if (TEXT_MIMES.has(mime)) {
      bundle[mime as 'text/html'] = joinText(content, `${where}: ${mime}`);
    } else if (mime === 'application/json') {
      bundle[mime] = content;
    } else if (/^application\/vnd\.gpubook\.[a-z0-9-]+\+json$/.test(mime)) {
      bundle[mime as `application/vnd.gpubook.${string}+json`] = content;
    }
  }
  // A chart's picture is ours, made from its JSON on save: the app draws the chart itself.
  if (isChartData(bundle[CHART_MIME])) delete bundle['image/svg+xml'];
  return bundle;
}

function joinText(value: Json | undefined, where: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join('');
  throw new NotebookFileError(`${where} must be a string or a list of strings.`);
}

function expectObject(value: Json | unknown, message: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new NotebookFileError(`${message}.`.replace(/\.\.$/, '.'));
  }
  return value as JsonObject;
}

/** "Download as .ts": the code cells in order, markdown as comments (as Colab's .py download). */
export function toTypeScript(notebook: Notebook): string {
  const parts = notebook.cells.map((cell, i) => {
    const header = `// %% [${cell.type}] cell ${i + 1}`;
    const body =
      cell.type === 'code'
        ? cell.source
        : cell.source
            .split('\n')
            .map((line) => `// ${line}`.trimEnd())
            .join('\n');
    return `${header}\n${body}\n`;
  });
  return `// ${notebook.title} — exported from gpubook\n\n${parts.join('\n')}`;
}

/**
 * "Download as .py" for Python notebooks: the percent format (`# %%` cells) that VS Code, Spyder
 * and Jupytext read back as cells; markdown as comments.
 */
export function toPython(notebook: Notebook): string {
  const parts = notebook.cells.map((cell) => {
    if (cell.type === 'code') return `# %%\n${cell.source}\n`;
    const body = cell.source
      .split('\n')
      .map((line) => `# ${line}`.trimEnd())
      .join('\n');
    return `# %% [markdown]\n${body}\n`;
  });
  return `# ${notebook.title} — exported from gpubook\n\n${parts.join('\n')}`;
}

/** Parses file text; invalid JSON becomes a NotebookFileError like every other problem. */
export function parseIpynbText(text: string, fallbackTitle?: string): Notebook {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new NotebookFileError('The file is not valid JSON, so it is not an .ipynb notebook.');
  }
  return fromIpynb(json, fallbackTitle);
}
