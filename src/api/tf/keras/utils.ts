/**
 * `tf.keras.utils`: the helpers at the top of notebooks. `toCategorical` and `normalize` are
 * Keras's formulas on engine ops (one-hot rows, a p-norm with zero norms left alone);
 * `setRandomSeed` seeds the engine's generator (Python's face also seeds `random` and NumPy);
 * `plotModel` draws the layer graph as SVG (plot-model.ts); `getFile` says why nothing can be
 * downloaded here.
 */
import { cpu, manualSeed, ops, Tensor, type DType } from '../../../engine';
import { asInt, asNumber, bindArgs, boolArg, describe, optional } from '../../args';
import { ValueError } from '../../tf-config';
import type { Layer, ShapeSpec } from './layers/layer';
import { plotGraphSvg, shapeText, type PlotGraph } from './plot-model';
import { padSequences } from './preprocessing';

/** Keras's dtype names on the engine's two: float kinds are float32, integer and bool int32. */
function engineDtype(value: unknown, what: string): DType {
  if (value === undefined || value === null) return 'float32';
  if (typeof value !== 'string')
    throw new TypeError(`${what}: dtype must be a string, got ${describe(value)}`);
  if (/^(float(16|32|64)?|double|half|bfloat16)$/.test(value)) return 'float32';
  if (/^(u?int(8|16|32|64)?|bool|long)$/.test(value)) return 'int32';
  throw new TypeError(`${what}: unsupported dtype ${JSON.stringify(value)}`);
}

/** Host data (lists, typed arrays) as a cpu tensor, as Keras takes NumPy arrays. */
function hostTensor(value: unknown, what: string): Tensor {
  if (value instanceof Tensor) return value;
  if (ArrayBuffer.isView(value) || Array.isArray(value) || typeof value === 'number')
    return ops.fromData(value, { device: cpu() });
  throw new TypeError(`${what} must be a tensor or an array of numbers, got ${describe(value)}`);
}

/**
 * `toCategorical(y, numClasses = null, dtype = 'float32')`: class ids [...] (a trailing axis of 1
 * is dropped, as Keras does) to one-hot rows [..., numClasses]; numClasses defaults to max(y) + 1.
 */
function toCategorical(...args: unknown[]): Tensor {
  const what = 'to_categorical';
  const a = bindArgs({ name: what, params: ['y', 'numClasses', 'dtype'] }, args);
  let y = hostTensor(a.y, `${what}: y`);
  if (y.ndim > 1 && y.shape[y.ndim - 1] === 1) y = ops.squeeze(y, -1);
  if (y.dtype !== 'int32') y = ops.cast(y, 'int32');
  const numClasses = optional<number | null>(a.numClasses, asInt, `${what}: num_classes`, null);
  const dtype = engineDtype(a.dtype, what);
  let hot: Tensor;
  try {
    hot = ops.oneHot(y, numClasses ?? -1);
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    // The engine names its op one_hot; say which Keras function the labels were given to.
    const renamed = new (error.constructor as ErrorConstructor)(`${what}: ${error.message}`);
    throw renamed;
  }
  return ops.cast(hot, dtype);
}

/** `normalize(x, axis = -1, order = 2)`: x divided by its `order`-norm along `axis` (0 norms: 1). */
function normalize(...args: unknown[]): Tensor {
  const what = 'normalize';
  const a = bindArgs({ name: what, params: ['x', 'axis', 'order'] }, args);
  let x = hostTensor(a.x, `${what}: x`);
  if (x.dtype !== 'float32') x = ops.cast(x, 'float32');
  const axis = optional(a.axis, asInt, `${what}: axis`, -1);
  const order = optional(a.order, asNumber, `${what}: order`, 2);
  const magnitude = ops.abs(x);
  let norm: Tensor;
  if (order === 2) norm = ops.sqrt(ops.sum(ops.square(x), axis, true));
  else if (order === 1) norm = ops.sum(magnitude, axis, true);
  else if (order === Infinity) norm = ops.amax(magnitude, axis, true);
  else if (order > 0) norm = ops.pow(ops.sum(ops.pow(magnitude, order), axis, true), 1 / order);
  else throw new ValueError(`${what}: order must be positive or inf, got ${order}`);
  return ops.div(x, ops.where(ops.eq(norm, 0), 1, norm));
}

function setRandomSeed(...args: unknown[]): void {
  const a = bindArgs({ name: 'set_random_seed', params: ['seed'] }, args);
  manualSeed(asInt(a.seed, 'set_random_seed: seed'));
}

interface PlottableModel {
  name: string;
  layers: Layer[];
}

function isPlottable(value: unknown): value is PlottableModel {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  return Array.isArray((value as { layers?: unknown }).layers);
}

/** A functional model's recorded calls (models/functional.ts), seen structurally. */
interface GraphNode {
  layer: unknown;
  inputs: readonly { shape: ShapeSpec; history: { node: GraphNode } | null }[];
  outputs: { shape: ShapeSpec } | readonly { shape: ShapeSpec }[];
}

function graphNodes(model: PlottableModel): GraphNode[] | null {
  const { nodes, inputs } = model as { nodes?: unknown; inputs?: unknown };
  return Array.isArray(nodes) && Array.isArray(inputs) ? (nodes as GraphNode[]) : null;
}

const tensorShapes = (ts: readonly { shape: ShapeSpec }[]): ShapeSpec | ShapeSpec[] =>
  ts.length === 1 ? ts[0].shape : ts.map((t) => t.shape);

/**
 * The layers and edges to draw: a functional model's graph from its nodes (the Input layers
 * first, each node's layer fed by the layers that made its inputs), else the layers in order as a
 * chain (Sequential, subclassed models).
 */
function modelGraph(model: PlottableModel): PlotGraph {
  const layers = model.layers;
  const nodes = graphNodes(model);
  if (!nodes) {
    return {
      layers: layers.map((layer) => ({
        layer,
        inputShape: shapeText(() => layer.inputShape),
        outputShape: shapeText(() => layer.outputShape),
      })),
      edges: layers.slice(1).map((_, i) => [i, i + 1]),
    };
  }
  const index = new Map<unknown, number>(layers.map((l, i) => [l, i]));
  const shapes = layers.map((layer) => ({
    layer,
    inputShape: shapeText(() => layer.inputShape),
    outputShape: shapeText(() => layer.outputShape),
  }));
  const edges: [number, number][] = [];
  const seen = new Set<string>();
  const inputNodes = new Set<GraphNode>();
  for (const node of nodes) {
    const to = index.get(node.layer);
    if (to === undefined) continue;
    const outs = Array.isArray(node.outputs) ? node.outputs : [node.outputs];
    shapes[to].inputShape = shapeText(() => tensorShapes(node.inputs));
    shapes[to].outputShape = shapeText(() => tensorShapes(outs as { shape: ShapeSpec }[]));
    for (const input of node.inputs) {
      const producer = input.history?.node;
      if (!producer) continue;
      const from = index.get(producer.layer);
      if (from === undefined) continue;
      if (producer.inputs.length === 0) inputNodes.add(producer);
      const key = `${from}>${to}`;
      if (!seen.has(key)) edges.push([from, to]);
      seen.add(key);
    }
  }
  // An Input layer shows its own shape as both (Keras prints the same).
  for (const node of inputNodes) {
    const i = index.get(node.layer);
    const outs = Array.isArray(node.outputs) ? node.outputs : [node.outputs];
    if (i !== undefined)
      shapes[i].inputShape = shapes[i].outputShape = shapeText(() =>
        tensorShapes(outs as { shape: ShapeSpec }[]),
      );
  }
  return { layers: shapes, edges };
}

/**
 * `plotModel(model, { showShapes, showDtype, showLayerNames, rankdir, showLayerActivations,
 * showTrainable })`: the layer graph as SVG text. `toFile`, `expandNested` and `dpi` are accepted
 * (the Python face writes `.svg` files; nested models are drawn as one box).
 */
function plotModel(...args: unknown[]): string {
  const what = 'plot_model';
  const a = bindArgs(
    {
      name: what,
      params: [
        'model',
        'toFile',
        'showShapes',
        'showDtype',
        'showLayerNames',
        'rankdir',
        'expandNested',
        'dpi',
        'layerRange',
        'showLayerActivations',
        'showTrainable',
      ],
    },
    args,
  );
  if (!isPlottable(a.model))
    throw new TypeError(`${what}: expected a Keras model, got ${describe(a.model)}`);
  const model = a.model;
  if (model.layers.some((layer) => !layer.built))
    throw new ValueError(
      'This model has not yet been built. Build the model first by calling `build()` or by ' +
        'calling the model on a batch of data.',
    );
  const rankdir = a.rankdir === undefined || a.rankdir === null ? 'TB' : a.rankdir;
  if (rankdir !== 'TB' && rankdir !== 'LR')
    throw new ValueError(`${what}: rankdir must be 'TB' or 'LR', got ${describe(rankdir)}`);
  return plotGraphSvg(model.name, modelGraph(model), {
    showShapes: boolArg(a.showShapes, `${what}: show_shapes`),
    showDtype: boolArg(a.showDtype, `${what}: show_dtype`),
    showLayerNames: boolArg(a.showLayerNames, `${what}: show_layer_names`, true),
    showLayerActivations: boolArg(a.showLayerActivations, `${what}: show_layer_activations`),
    showTrainable: boolArg(a.showTrainable, `${what}: show_trainable`),
    rankdir,
  });
}

/** Keras's `get_file` downloads; a notebook in the browser cannot, and says so. */
function getFile(...args: unknown[]): never {
  const a = bindArgs(
    {
      name: 'get_file',
      params: [
        'fname',
        'origin',
        'untar',
        'md5Hash',
        'fileHash',
        'cacheSubdir',
        'hashAlgorithm',
        'extract',
        'archiveFormat',
        'cacheDir',
        'forceDownload',
      ],
    },
    args,
  );
  const from = typeof a.origin === 'string' ? `'${a.origin}'` : 'its origin';
  const as = typeof a.fname === 'string' ? ` (as '${a.fname}')` : '';
  throw new Error(
    `get_file: cannot download ${from}${as}: the notebook runs in the browser, with no server to ` +
      'fetch files through. Upload the file into the notebook instead, or use a bundled dataset ' +
      '(tf.keras.datasets.mnist, fashion_mnist, reuters).',
  );
}

export const utils = {
  toCategorical,
  normalize,
  setRandomSeed,
  plotModel,
  getFile,
  // Keras 3 (and tf.keras since 2.9) also has pad_sequences here.
  padSequences,
};
