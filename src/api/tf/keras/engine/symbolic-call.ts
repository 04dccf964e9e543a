/**
 * A layer called on KerasTensors (the functional API): the call is recorded as a Node and its
 * outputs are new KerasTensors. Every layer gets this from `Layer.dispatch`, with no code of its
 * own: a layer with one symbolic input is first built from that input's shape (sizes left null
 * stay unknown) and checked against its input spec, as Keras does; then the output shapes come
 * from running the layer once on small stand-in tensors (Keras 3's `compute_output_spec` traces
 * `call` the same way), so layers with several inputs, several outputs or options need nothing
 * more. Shape errors therefore surface when the graph is built, named by the layer.
 */
import { defaultDevice, noGrad, ops, Tensor, type DType } from '../../../../engine';
import { isOptionsObject } from '../../../args';
import { kerasMask } from '../layers/masking';
import {
  KerasTensor,
  kerasTensorsIn,
  mapKerasTensors,
  type Node,
  type NodeLayer,
  type SymbolicShape,
} from './keras-tensor';

/** What symbolicCall needs of a Layer (layer.ts implements it; no import cycle). */
export interface SymbolicLayer extends NodeLayer {
  buildSymbolicArgs(positional: readonly unknown[]): void;
  callEager(args: readonly unknown[]): unknown;
}

const inbound = new WeakMap<NodeLayer, Node[]>();
let serial = 0;
const order = new WeakMap<Node, number>();

/** The nodes a layer has made so far, in order (Keras's `layer._inbound_nodes`). */
export function nodesOf(layer: NodeLayer): readonly Node[] {
  return inbound.get(layer) ?? [];
}

/** Creation order of nodes (a topological order of any graph made from them). */
export function nodeSerial(node: Node): number {
  return order.get(node) ?? -1;
}

/** Records `node` for its layer and gives its outputs their history. */
export function addNode(node: Omit<Node, 'index'>): Node {
  const list = inbound.get(node.layer) ?? [];
  const full: Node = { ...node, index: list.length };
  list.push(full);
  inbound.set(node.layer, list);
  order.set(full, serial++);
  const outs = Array.isArray(full.outputs) ? full.outputs : [full.outputs];
  outs.forEach((t: KerasTensor, tensorIndex) => (t.history = { node: full, tensorIndex }));
  return full;
}

// Stand-in sizes for unknown dimensions: the batch, and two values for other unknown sizes
// (an output size that changes with them is unknown too).
const BATCH = 2;
const FREE = [5, 7];

interface Probe {
  shapes: number[][];
  dtypes: DType[];
  /** Whether the layer returned an array of tensors (else one tensor). */
  many: boolean;
}

function probe(layer: SymbolicLayer, positional: unknown[], options: unknown, free: number): Probe {
  return noGrad(() => {
    const made: Tensor[] = [];
    const device = defaultDevice('tf');
    const real = mapKerasTensors(positional, (kt) => {
      const shape = kt.shape.map((d, i) => (d !== null ? d : i === 0 ? BATCH : free));
      // Neutral values: integers 0 (valid indices), floats 0.5; never the random stream.
      const t = ops.full(shape, kt.dtype === 'int32' ? 0 : 0.5, { device, dtype: kt.dtype });
      made.push(t);
      return t;
    }) as unknown[];
    // Never a training-mode call: it would move BatchNormalization's statistics, for one.
    const opts = options === undefined ? undefined : { ...(options as object), training: false };
    const out = layer.callEager(opts === undefined ? real : [...real, opts]);
    const many = Array.isArray(out);
    const list = (many ? out : [out]) as unknown[];
    if (!list.every((t) => t instanceof Tensor)) {
      throw new TypeError(
        `layer "${layer.name}" (${layer.className}) returned something other than tensors, so it cannot be used in a functional model`,
      );
    }
    const tensors = list as Tensor[];
    const result = {
      shapes: tensors.map((t) => [...t.shape]),
      dtypes: tensors.map((t) => t.dtype),
      many,
    };
    // Masks the stand-ins' outputs carry (Embedding's) were made here too.
    const masks = tensors.map(kerasMask).filter((m): m is Tensor => m !== null);
    for (const t of new Set([...made, ...tensors, ...masks])) t.dispose();
    return result;
  });
}

const WRAPPED = 'Exception encountered when calling layer';

/** `layer(...args)` on symbolic inputs: records the node and returns its output KerasTensor(s). */
export function symbolicCall(
  layer: SymbolicLayer,
  args: readonly unknown[],
): KerasTensor | KerasTensor[] {
  const last = args[args.length - 1];
  const hasOptions = args.length > 1 && isOptionsObject(last) && !(last instanceof KerasTensor);
  const positional = hasOptions ? args.slice(0, -1) : [...args];
  const options = hasOptions ? (last as Record<string, unknown>) : null;
  const inputs = kerasTensorsIn(positional);
  let first: Probe;
  let second: Probe;
  try {
    layer.buildSymbolicArgs(positional);
    first = probe(layer, positional, options ?? undefined, FREE[0]);
    const freeDims = inputs.some((t) => t.shape.slice(1).includes(null));
    second = freeDims ? probe(layer, positional, options ?? undefined, FREE[1]) : first;
  } catch (error) {
    // TF ≥ 2.9 names the layer whose call failed while the graph was being built.
    if (error instanceof Error && !error.message.startsWith(WRAPPED)) {
      error.message = `${WRAPPED} "${layer.name}" (type ${layer.className}).\n\n${error.message}`;
    }
    throw error;
  }
  const batchUnknown = inputs.length > 0 && inputs.every((t) => t.shape[0] === null);
  const outputs = first.shapes.map((shape, i) => {
    const symbolic: SymbolicShape = shape.map((d, axis) =>
      (axis === 0 && batchUnknown) || d !== second.shapes[i][axis] ? null : d,
    );
    return new KerasTensor(symbolic, first.dtypes[i]);
  });
  addNode({
    layer,
    args: positional,
    options,
    inputs,
    outputs: first.many ? outputs : outputs[0],
  });
  return first.many ? outputs : outputs[0];
}
