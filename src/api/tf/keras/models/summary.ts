/**
 * Keras's `model.summary()` table for sequential models, character for character as TF 2.x
 * prints it: 65 columns split at 29 and 55, names cut to fit with a space before the next column,
 * '=' rules around the body, thousands separators in the totals.
 */
import { formatShapeSpec, type Layer } from '../layers/layer';

export interface SummaryOptions {
  lineLength?: number;
  /** Column ends as fractions of the line (≤ 1) or as absolute positions. */
  positions?: number[];
  /** Where lines go (default: the notebook's output). */
  printFn?: (line: string) => void;
}

/** Keras's print_row: each field cut at its column end, the previous column's last char a space. */
export function row(fields: string[], positions: number[]): string {
  let line = '';
  fields.forEach((field, i) => {
    if (i > 0) line = `${line.slice(0, -1)} `;
    line += field;
    line = line.slice(0, positions[i]);
    line += ' '.repeat(Math.max(0, positions[i] - line.length));
  });
  return line;
}

const thousands = (n: number): string => n.toLocaleString('en-US');

/** Column ends: fractions of the line (the last ≤ 1) scaled to it, else absolute positions. */
export function columnPositions(lineLength: number, fractions: readonly number[]): number[] {
  return fractions[fractions.length - 1] <= 1
    ? fractions.map((p) => Math.floor(lineLength * p))
    : [...fractions];
}

/** The model's name, the header row between rules. */
export function summaryHead(
  modelName: string,
  header: string[],
  lineLength: number,
  positions: number[],
): string[] {
  return [
    `Model: "${modelName}"`,
    '_'.repeat(lineLength),
    row(header, positions),
    '='.repeat(lineLength),
  ];
}

/** The totals with thousands separators, and the closing rule. */
export function summaryFoot(total: number, trainable: number, lineLength: number): string[] {
  return [
    `Total params: ${thousands(total)}`,
    `Trainable params: ${thousands(trainable)}`,
    `Non-trainable params: ${thousands(total - trainable)}`,
    '_'.repeat(lineLength),
  ];
}

export function summaryLines(
  modelName: string,
  layers: readonly Layer[],
  options: SummaryOptions = {},
  /** A layer's Output Shape column (default: its output shape; a subclassed model's: "multiple"). */
  shapeText: (layer: Layer) => string = (layer) => formatShapeSpec(layer.outputShape),
): string[] {
  const lineLength = options.lineLength ?? 65;
  const fractions = options.positions ?? [0.45, 0.85, 1];
  const positions = columnPositions(lineLength, fractions);
  const lines = summaryHead(
    modelName,
    ['Layer (type)', 'Output Shape', 'Param #'],
    lineLength,
    positions,
  );
  layers.forEach((layer, i) => {
    lines.push(
      row(
        [`${layer.name} (${layer.className})`, shapeText(layer), String(layer.countParams())],
        positions,
      ),
    );
    lines.push((i === layers.length - 1 ? '=' : '_').repeat(lineLength));
  });
  if (layers.length === 0) lines.push('='.repeat(lineLength));
  const trainable = layers.reduce(
    (n, l) => n + l.trainableWeights.reduce((m, w) => m + w.numel(), 0),
    0,
  );
  const total = layers.reduce((n, l) => n + l.countParams(), 0);
  return [...lines, ...summaryFoot(total, trainable, lineLength)];
}
