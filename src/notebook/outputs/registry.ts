/**
 * Output renderers keyed by MIME type. A cell output is turned into one (MIME type, data) pair —
 * the richest type of its bundle that has a renderer — and drawn by that renderer. Charts,
 * images, progress bars and tensors plug in with one line:
 *
 *     registerOutputRenderer('application/vnd.gpubook.chart+json', ChartOutput);
 *
 * Streams and errors use Jupyter's own pseudo MIME types, so they are swappable the same way.
 */
import type { ComponentType } from 'react';
import type { CellOutput, MimeBundle } from '../../kernel/protocol';

export const STDOUT_MIME = 'application/vnd.jupyter.stdout';
export const STDERR_MIME = 'application/vnd.jupyter.stderr';
export const ERROR_MIME = 'application/vnd.jupyter.error';
export const PLAIN_MIME = 'text/plain';

export interface OutputRendererProps {
  mime: string;
  /** The value under `mime`: a string for text types, parsed JSON for `+json` types. */
  data: unknown;
  /** The whole output, for renderers that need more (e.g. the display id). */
  output: CellOutput;
}

export type OutputRenderer = ComponentType<OutputRendererProps>;

interface Entry {
  renderer: OutputRenderer;
  /** Higher wins when a bundle has several types with renderers. */
  rank: number;
}

const renderers = new Map<string, Entry>();

/**
 * Rich types default above every standard type (our own `application/vnd.gpubook.*` renderings
 * win over the HTML or SVG beside them); the standard ones are ranked as Jupyter orders them
 * (builtins.ts); text/plain, the fallback of every bundle, is 0.
 */
export function registerOutputRenderer(
  mime: string,
  renderer: OutputRenderer,
  options: { rank?: number } = {},
): void {
  renderers.set(mime, { renderer, rank: options.rank ?? (mime === PLAIN_MIME ? 0 : 100) });
}

export function rendererFor(mime: string): OutputRenderer | null {
  return renderers.get(mime)?.renderer ?? null;
}

/** The richest MIME type of the bundle that has a renderer (text/plain if none). */
export function pickMime(bundle: MimeBundle): string {
  let best = PLAIN_MIME;
  let bestRank = -Infinity;
  for (const mime of Object.keys(bundle)) {
    const entry = renderers.get(mime);
    if (entry && bundle[mime as keyof MimeBundle] !== undefined && entry.rank > bestRank) {
      best = mime;
      bestRank = entry.rank;
    }
  }
  return best;
}

/** What to draw for an output: its MIME type and the data under it. */
export function resolveOutput(output: CellOutput): { mime: string; data: unknown } {
  switch (output.kind) {
    case 'stream':
      return { mime: output.name === 'stderr' ? STDERR_MIME : STDOUT_MIME, data: output.text };
    case 'error':
      return {
        mime: ERROR_MIME,
        data: { ename: output.ename, evalue: output.evalue, traceback: output.traceback },
      };
    case 'result':
    case 'display': {
      const mime = pickMime(output.data);
      return { mime, data: output.data[mime as keyof MimeBundle] };
    }
  }
}
