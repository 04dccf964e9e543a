/**
 * `plot_model`'s picture of a model's layer graph as SVG text (Keras draws it with pydot and
 * Graphviz, which a browser does not have): one box per layer, in the model's layer order, joined
 * by arrows top to bottom ('TB') or left to right ('LR'). The Python face shows it through
 * IPython's display protocol; TypeScript cells get the SVG text.
 */
import { formatShapeSpec, type Layer } from './layers/layer';

export interface PlotOptions {
  showShapes: boolean;
  showDtype: boolean;
  showLayerNames: boolean;
  showLayerActivations: boolean;
  showTrainable: boolean;
  rankdir: 'TB' | 'LR';
}

/** Monospace metrics (px) the layout assumes; the SVG asks for a monospace font of this size. */
const FONT = 12;
const CHAR_WIDTH = 7.3;
const LINE = 16;
const PAD = 8;
const GAP = 28;
const MARGIN = 10;

const escapeXml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** What a layer's box says, line by line (Keras 3's fields, as plain text). */
export function layerLines(layer: Layer, options: PlotOptions): string[] {
  const lines = [options.showLayerNames ? `${layer.name} (${layer.className})` : layer.className];
  if (options.showShapes) {
    lines.push(`Input shape: ${formatShapeSpec(layer.inputShape)}`);
    lines.push(`Output shape: ${formatShapeSpec(layer.outputShape)}`);
  }
  if (options.showDtype) lines.push('Output dtype: float32');
  const activation = (layer as { activation?: { name?: unknown } }).activation;
  if (options.showLayerActivations && typeof activation?.name === 'string')
    lines.push(`Activation: ${activation.name}`);
  if (options.showTrainable) lines.push(`Trainable: ${layer.trainable ? 'True' : 'False'}`);
  return lines;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  lines: string[];
}

/** The SVG document for `layers` in order, each feeding the next. */
export function plotLayersSvg(
  modelName: string,
  layers: readonly Layer[],
  options: PlotOptions,
): string {
  const boxes: Box[] = [];
  const vertical = options.rankdir === 'TB';
  const sized = layers.map((layer) => {
    const lines = layerLines(layer, options);
    const width = Math.ceil(Math.max(...lines.map((l) => l.length)) * CHAR_WIDTH + 2 * PAD);
    return { lines, width, height: lines.length * LINE + PAD };
  });
  const across = Math.max(0, ...sized.map((b) => (vertical ? b.width : b.height)));
  let at = MARGIN;
  for (const b of sized) {
    const x = vertical ? MARGIN + (across - b.width) / 2 : at;
    const y = vertical ? at : MARGIN + (across - b.height) / 2;
    boxes.push({ ...b, x, y });
    at += (vertical ? b.height : b.width) + GAP;
  }
  const length = at - GAP + MARGIN;
  const [width, height] = vertical ? [across + 2 * MARGIN, length] : [length, across + 2 * MARGIN];
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
      `viewBox="0 0 ${width} ${height}" font-family="monospace" font-size="${FONT}">`,
    `<title>${escapeXml(modelName)}</title>`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" ' +
      'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>',
  ];
  boxes.forEach((b, i) => {
    parts.push(
      `<rect x="${b.x}" y="${b.y}" width="${b.width}" height="${b.height}" rx="4" ` +
        'fill="#f4f6fb" stroke="#333"/>',
    );
    b.lines.forEach((line, j) => {
      const weight = j === 0 ? ' font-weight="bold"' : '';
      parts.push(
        `<text x="${b.x + PAD}" y="${b.y + PAD / 2 + (j + 1) * LINE - 4}"${weight}>${escapeXml(line)}</text>`,
      );
    });
    const next = boxes[i + 1];
    if (next) {
      const [x1, y1, x2, y2] = vertical
        ? [b.x + b.width / 2, b.y + b.height, next.x + next.width / 2, next.y]
        : [b.x + b.width, b.y + b.height / 2, next.x, next.y + next.height / 2];
      parts.push(
        `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#333" marker-end="url(#arrow)"/>`,
      );
    }
  });
  parts.push('</svg>');
  return parts.join('\n');
}
