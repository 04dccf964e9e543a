/**
 * The export of a Python notebook for real distributed training (issue 20): the kernel's Python
 * (`gpubook.export_ddp`, with Python's own `ast`) rewrites the code cells and writes the report
 * and the weights into the kernel's file store (the IndexedDB database `torch.save` writes in the
 * worker); this side reads them back, removes them, and zips the download with fflate.
 */
import { strToU8, zipSync } from 'fflate';
import { indexedDbTensorStore } from '../kernel/idb-tensor-store';
import type { TensorStore } from '../engine/serialization';
import { notebookLanguage, type Notebook } from '../notebook/model';
import type { HiddenRun } from '../notebook/store/types';

export interface DdpLine {
  cell: number;
  line: number | null;
  code: string;
}

export interface DdpReport {
  framework: 'torch' | 'tensorflow';
  scriptName: string;
  script: string;
  readme: string;
  requirements: string;
  model: { name: string | null; why: string };
  untranslated: (DdpLine & { reason: string })[];
  dropped: DdpLine[];
  changes: string[];
}

export interface DdpExport {
  report: DdpReport;
  /** The `.safetensors` bytes, or null when the kernel held no module. */
  weights: Uint8Array<ArrayBuffer> | null;
}

/** Where `export_to_store` leaves its files (gpubook/export_ddp.py's EXPORT_DIR). */
const EXPORT_DIR = '.export-ddp';

let store: TensorStore | null = null;
/** One connection for the page's lifetime, as the files panel keeps. */
const files = (): TensorStore => (store ??= indexedDbTensorStore());

/** The Python the kernel runs: the notebook's code cells and title as JSON string literals. */
export function exportProgram(notebook: Notebook): string {
  const sources = notebook.cells.filter((c) => c.type === 'code').map((c) => c.source);
  const literal = (value: unknown) => JSON.stringify(JSON.stringify(value));
  return [
    'import gpubook.export_ddp as _gpubook_export_ddp',
    `_gpubook_export_ddp.export_to_store(${literal(sources)}, globals(), ${literal(notebook.title)})`,
    'del _gpubook_export_ddp',
  ].join('\n');
}

export class DdpExportError extends Error {}

function fail(what: string): never {
  throw new DdpExportError(`The export's report is not what this page expects: ${what}`);
}

const isLine = (v: unknown): v is DdpLine =>
  typeof v === 'object' && v !== null && typeof (v as DdpLine).cell === 'number';

/** The report written by `gpubook.export_ddp.export_to_store`, checked field by field. */
export function parseReport(text: string): DdpReport & { hasWeights: boolean } {
  const raw: unknown = JSON.parse(text);
  if (typeof raw !== 'object' || raw === null) fail('not an object');
  const r = raw as Record<string, unknown>;
  const str = (key: string): string =>
    typeof r[key] === 'string' ? (r[key] as string) : fail(`${key} is not text`);
  const list = <T>(key: string, ok: (v: unknown) => v is T): T[] =>
    Array.isArray(r[key]) && (r[key] as unknown[]).every(ok)
      ? (r[key] as T[])
      : fail(`${key} is not a list`);
  const framework = str('framework');
  if (framework !== 'torch' && framework !== 'tensorflow') fail(`framework ${framework}`);
  const model = r.model as { name?: unknown; why?: unknown } | undefined;
  if (!model || typeof model.why !== 'string') fail('model');
  return {
    framework,
    scriptName: str('script_name'),
    script: str('script'),
    readme: str('readme'),
    requirements: str('requirements'),
    model: { name: typeof model.name === 'string' ? model.name : null, why: model.why },
    untranslated: list('untranslated', (v): v is DdpLine & { reason: string } => isLine(v)),
    dropped: list('dropped', isLine),
    changes: list('changes', (v): v is string => typeof v === 'string'),
    hasWeights: r.has_weights === true,
  };
}

/** The text of a failed run's error or stderr output, for the dialog. */
function failure(run: HiddenRun): string {
  for (const output of run.outputs) {
    if (output.kind === 'error') return `${output.ename}: ${output.evalue}`;
  }
  const stderr = run.outputs.flatMap((o) => (o.kind === 'stream' ? [o.text] : [])).join('');
  return stderr.trim() || `the kernel's run ended: ${run.status}`;
}

/** Asks the notebook's kernel for the export of `notebook` (a Python notebook). */
export async function requestDdpExport(
  notebook: Notebook,
  runHidden: (code: string) => Promise<HiddenRun>,
): Promise<DdpExport> {
  if (notebookLanguage(notebook) !== 'python') {
    throw new DdpExportError('Only Python notebooks export to DistributedDataParallel.');
  }
  const run = await runHidden(exportProgram(notebook));
  if (run.status !== 'ok') throw new DdpExportError(`The export failed: ${failure(run)}`);
  const reportName = `${EXPORT_DIR}/report.json`;
  const weightsName = `${EXPORT_DIR}/weights.safetensors`;
  const bytes = await files().get(reportName);
  if (!bytes) throw new DdpExportError('The export wrote no report.');
  const { hasWeights, ...report } = parseReport(new TextDecoder().decode(bytes));
  const weights = hasWeights ? ((await files().get(weightsName)) ?? null) : null;
  // They were only the way here: the files panel should not keep them.
  await files().delete(reportName);
  await files().delete(weightsName);
  return { report, weights: weights ? new Uint8Array(weights) : null };
}

/** The `.zip`: the script, README.md, requirements.txt and weights.safetensors when there are. */
export function ddpZip({ report, weights }: DdpExport): Uint8Array<ArrayBuffer> {
  const entries: Record<string, Uint8Array> = {
    [report.scriptName]: strToU8(report.script),
    'README.md': strToU8(report.readme),
    'requirements.txt': strToU8(report.requirements),
  };
  if (weights) entries['weights.safetensors'] = weights;
  return new Uint8Array(zipSync(entries, { level: 6 }));
}
