/**
 * `plot_model`'s picture of a model's layer graph as SVG text (Keras draws it with pydot and
 * Graphviz, which a browser does not have): one box per layer, arrows from each layer to the
 * layers it feeds, laid out in ranks (a layer one rank below the deepest layer feeding it), top
 * to bottom ('TB') or left to right ('LR'). A Sequential model is a chain; a functional model's
 * graph comes from its nodes. The Python face shows it through IPython's display protocol;
 * TypeScript cells get the SVG text.
 */
import { formatShapeSpec, type Layer, type ShapeSpec } from './layers/layer';

export interface PlotOptions {
  showShapes: boolean;
  showDtype: boolean;
  showLayerNames: boolean;
  showLayerActivations: boolean;
  showTrainable: boolean;
  rankdir: 'TB' | 'LR';
}

/** A box: its layer and the shapes it shows (Keras's tuple text, a list for several tensors). */
export interface PlotLayer {
  layer: Layer;
  inputShape: string;
  outputShape: string;
}

/** The graph to draw: layers in a topological order, edges as [from, to] indices into it. */
export interface PlotGraph {
  layers: PlotLayer[];
  edges: [number, number][];
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

/** A layer's shape as Keras prints it, or '?' where the layer cannot say. */
export function shapeText(read: () => ShapeSpec | readonly ShapeSpec[]): string {
  try {
    const shape = read();
    if (shape.length > 0 && Array.isArray(shape[0]))
      return `[${(shape as readonly ShapeSpec[]).map(formatShapeSpec).join(', ')}]`;
    return formatShapeSpec(shape as ShapeSpec);
  } catch {
    return '?';
  }
}

/** What a layer's box says, line by line (Keras 3's fields, as plain text). */
export function layerLines(box: PlotLayer, options: PlotOptions): string[] {
  const { layer } = box;
  const lines = [options.showLayerNames ? `${layer.name} (${layer.className})` : layer.className];
  if (options.showShapes) {
    lines.push(`Input shape: ${box.inputShape}`);
    lines.push(`Output shape: ${box.outputShape}`);
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

/** Each layer's rank: 0 for layers nothing feeds, else one more than its deepest feeder. */
function ranks(count: number, edges: readonly [number, number][]): number[] {
  const rank = new Array<number>(count).fill(0);
  // Layers come in a topological order, so one pass in edge-target order settles every rank.
  const sorted = [...edges].sort((a, b) => a[1] - b[1]);
  for (const [from, to] of sorted) rank[to] = Math.max(rank[to], rank[from] + 1);
  return rank;
}

/** The SVG document for `graph`. */
export function plotGraphSvg(modelName: string, graph: PlotGraph, options: PlotOptions): string {
  const vertical = options.rankdir === 'TB';
  const sized = graph.layers.map((box) => {
    const lines = layerLines(box, options);
    const width = Math.ceil(Math.max(...lines.map((l) => l.length)) * CHAR_WIDTH + 2 * PAD);
    return { lines, width, height: lines.length * LINE + PAD };
  });
  const rank = ranks(sized.length, graph.edges);
  const levels: number[][] = [];
  rank.forEach((r, i) => (levels[r] ??= []).push(i));
  // Along: the direction of the arrows (down for TB); across: within one rank.
  const along = (b: { width: number; height: number }) => (vertical ? b.height : b.width);
  const across = (b: { width: number; height: number }) => (vertical ? b.width : b.height);
  const levelAcross = levels.map(
    (level) => level.reduce((n, i) => n + across(sized[i]), 0) + GAP * (level.length - 1),
  );
  const widest = Math.max(0, ...levelAcross);
  const boxes: Box[] = new Array<Box>(sized.length);
  let at = MARGIN;
  levels.forEach((level, r) => {
    const depth = Math.max(...level.map((i) => along(sized[i])));
    let side = MARGIN + (widest - levelAcross[r]) / 2;
    for (const i of level) {
      const b = sized[i];
      const offset = (depth - along(b)) / 2;
      boxes[i] = vertical ? { ...b, x: side, y: at + offset } : { ...b, x: at + offset, y: side };
      side += across(b) + GAP;
    }
    at += depth + GAP;
  });
  const length = levels.length > 0 ? at - GAP + MARGIN : 2 * MARGIN;
  const [width, height] = vertical ? [widest + 2 * MARGIN, length] : [length, widest + 2 * MARGIN];
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
      `viewBox="0 0 ${width} ${height}" font-family="monospace" font-size="${FONT}">`,
    `<title>${escapeXml(modelName)}</title>`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" ' +
      'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>',
  ];
  for (const b of boxes) {
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
  }
  for (const [from, to] of graph.edges) {
    const [a, b] = [boxes[from], boxes[to]];
    const [x1, y1, x2, y2] = vertical
      ? [a.x + a.width / 2, a.y + a.height, b.x + b.width / 2, b.y]
      : [a.x + a.width, a.y + a.height / 2, b.x, b.y + b.height / 2];
    parts.push(
      `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#333" marker-end="url(#arrow)"/>`,
    );
  }
  parts.push('</svg>');
  return parts.join('\n');
}
