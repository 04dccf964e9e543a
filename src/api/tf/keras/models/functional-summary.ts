/**
 * `summary()` of a functional model as TF 2.4–2.8's Keras prints it (keras/utils/layer_utils.py,
 * print_summary): a chain of layers (each used once, one input each) prints as Sequential does
 * (65 columns) with the InputLayer's row; any other graph gets 98 columns split at 33/55/67% and a
 * "Connected to" column, one `layer[node][tensor]` per row. InputLayers show `[(None, 4)]`, a
 * layer whose calls gave different shapes "multiple".
 */
import type { KerasTensor, Node } from '../engine/keras-tensor';
import { formatTuple } from '../engine/keras-tensor';
import { nodesOf } from '../engine/symbolic-call';
import { InputLayer } from '../layers/input-layer';
import type { Layer } from '../layers/layer';
import { columnPositions, row, summaryFoot, summaryHead, type SummaryOptions } from './summary';

/** What the summary reads of a functional model. */
export interface GraphModel {
  name: string;
  readonly layers: Layer[];
  readonly nodes: readonly Node[];
  readonly outputs: readonly KerasTensor[];
  readonly inputs: readonly KerasTensor[];
  readonly trainableWeights: readonly { numel(): number }[];
  readonly weights: readonly { numel(): number }[];
}

const outputsOf = (node: Node): readonly KerasTensor[] =>
  Array.isArray(node.outputs) ? node.outputs : [node.outputs as KerasTensor];

/** Keras's `layer.output_shape`: one shape (or list of them) if every call agreed, else "multiple". */
function shapeText(layer: Layer): string {
  const texts = nodesOf(layer).map((node) => {
    const shapes = outputsOf(node).map((t) => formatTuple(t.shape));
    return Array.isArray(node.outputs) || layer instanceof InputLayer
      ? `[${shapes.join(', ')}]`
      : shapes[0];
  });
  return texts.length > 0 && texts.every((t) => t === texts[0]) ? texts[0] : 'multiple';
}

/** Keras's sequential_like: one input, one output, each node fed by the one before it only. */
function sequentialLike(model: GraphModel): boolean {
  if (model.inputs.length !== 1 || model.outputs.length !== 1) return false;
  let previous: KerasTensor = model.inputs[0];
  const seen = new Set<unknown>();
  for (const node of model.nodes) {
    if (seen.has(node.layer) || node.inputs.length !== 1 || node.inputs[0] !== previous)
      return false;
    seen.add(node.layer);
    const outs = outputsOf(node);
    if (outs.length !== 1) return false;
    previous = outs[0];
  }
  return previous === model.outputs[0];
}

export function functionalSummaryLines(model: GraphModel, options: SummaryOptions = {}): string[] {
  const chain = sequentialLike(model);
  const lineLength = options.lineLength ?? (chain ? 65 : 98);
  const fractions = options.positions ?? (chain ? [0.45, 0.85, 1] : [0.33, 0.55, 0.67, 1]);
  const positions = columnPositions(lineLength, fractions);
  const header = ['Layer (type)', 'Output Shape', 'Param #'];
  const lines = summaryHead(
    model.name,
    chain ? header : [...header, 'Connected to'],
    lineLength,
    positions,
  );
  const inModel = new Set(model.nodes);
  const layers = model.layers;
  layers.forEach((layer, i) => {
    const connections: string[] = [];
    for (const node of nodesOf(layer)) {
      if (!inModel.has(node)) continue;
      for (const t of node.inputs) {
        const h = t.history;
        if (h) connections.push(`${h.node.layer.name}[${h.node.index}][${h.tensorIndex}]`);
      }
    }
    const fields = [
      `${layer.name} (${layer.className})`,
      shapeText(layer),
      String(layer.countParams()),
    ];
    lines.push(row(chain ? fields : [...fields, connections[0] ?? ''], positions));
    if (!chain) for (const c of connections.slice(1)) lines.push(row(['', '', '', c], positions));
    lines.push((i === layers.length - 1 ? '=' : '_').repeat(lineLength));
  });
  const count = (ws: readonly { numel(): number }[]): number =>
    ws.reduce((n, w) => n + w.numel(), 0);
  const total = count(model.weights);
  const trainable = count(model.trainableWeights);
  return [...lines, ...summaryFoot(total, trainable, lineLength)];
}
