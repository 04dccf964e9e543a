/**
 * Keras's functional model, `keras.Model(inputs, outputs)`: the nodes recorded by calling layers
 * on KerasTensors (engine/symbolic-call.ts), from the given Inputs to the outputs, replayed in
 * creation order (a topological order) on real tensors when the model is called. Multi-input
 * models take a list (or a dict by input name), multi-output models return a list; shared layers
 * are nodes of one layer; masks ride with the tensors (layers/masking.ts). Training, weights and
 * printing are Model's; the summary is Keras's functional table (functional-summary.ts).
 */
import { Tensor } from '../../../../engine';
import { KerasValueError } from '../engine/errors';
import { writeOutput } from '../../../../engine/training';
import { asBool, describe, isOptionsObject, optional, type BoundArgs } from '../../../args';
import { formatTuple, KerasTensor, mapKerasTensors, type Node } from '../engine/keras-tensor';
import { nodeSerial } from '../engine/symbolic-call';
import { InputLayer, inputLayerOf } from '../layers/input-layer';
import { Layer, toTensor, type CallOptions, type ShapeSpec } from '../layers/layer';
import { uniqueName } from '../naming';
import { functionalSummaryLines } from './functional-summary';
import { Model, registerFunctional } from './model';
import type { SummaryOptions } from './summary';

/** Keras's repr of a KerasTensor in error messages. */
const show = (t: unknown): string =>
  t instanceof KerasTensor
    ? t.toString()
    : t instanceof Tensor
      ? `tensor of shape ${formatTuple(t.shape)}`
      : describe(t);

function tensorList(
  value: unknown,
  what: string,
): { list: unknown[]; keys: string[] | null; single: boolean } {
  if (Array.isArray(value)) return { list: value, keys: null, single: false };
  if (value !== null && typeof value === 'object' && !(value instanceof KerasTensor)) {
    const entries = Object.entries(value as Record<string, unknown>);
    return { list: entries.map(([, v]) => v), keys: entries.map(([k]) => k), single: false };
  }
  if (value === undefined || value === null) throw new TypeError(`Model: ${what} must be given`);
  return { list: [value], keys: null, single: true };
}

export class Functional extends Model {
  static override readonly kerasClassName: string = 'Functional';
  /** The Input tensors, in order (Keras's `model.inputs`). */
  readonly inputs: KerasTensor[];
  /** The output tensors, in order (Keras's `model.outputs`). */
  readonly outputs: KerasTensor[];
  /** The nodes between inputs and outputs, in creation (topological) order, Inputs excluded. */
  readonly nodes: readonly Node[];
  private readonly inputKeys: string[] | null;
  private readonly singleOutput: boolean;
  private readonly layerList: Layer[];

  constructor(args: BoundArgs) {
    const name =
      args.name === undefined || args.name === null ? uniqueName('model') : String(args.name);
    super({ name, trainable: optional(args.trainable, asBool, 'Model: trainable', true) });
    const ins = tensorList(args.inputs, 'inputs');
    const outs = tensorList(args.outputs, 'outputs');
    for (const t of ins.list) {
      if (!inputLayerOf(t)) {
        throw new KerasValueError(
          `Input tensors to a Functional must come from \`tf.keras.Input\`. Received: ${show(t)} (missing previous layer metadata).`,
        );
      }
    }
    for (const t of outs.list) {
      if (!(t instanceof KerasTensor) || !t.history) {
        throw new KerasValueError(
          `Output tensors of a Functional model must be the output of a TensorFlow \`Layer\` (thus holding past layer metadata). Found: ${show(t)}`,
        );
      }
    }
    this.inputs = ins.list as KerasTensor[];
    this.outputs = outs.list as KerasTensor[];
    this.inputKeys = ins.keys;
    this.singleOutput = outs.single;
    this.nodes = this.collectNodes();
    const layers: Layer[] = this.inputs.map((t) => inputLayerOf(t) as InputLayer);
    for (const node of this.nodes) {
      const layer = node.layer as Layer;
      if (!layers.includes(layer)) layers.push(layer);
    }
    this.layerList = layers;
    this.built = true;
  }

  /** Walks back from the outputs to the inputs; Keras's "Graph disconnected" when one is missing. */
  private collectNodes(): Node[] {
    const known = new Set<KerasTensor>(this.inputs);
    const found = new Set<Node>();
    const visit = (t: KerasTensor, consumer: string): void => {
      if (known.has(t)) return;
      const node = t.history?.node;
      if (!node || node.layer instanceof InputLayer) {
        const reached = [...found].map((n) => n.layer.name);
        throw new KerasValueError(
          `Graph disconnected: cannot obtain value for tensor ${show(t)} at layer "${consumer}". ` +
            `The following previous layers were accessed without issue: [${reached.map((n) => `'${n}'`).join(', ')}]`,
        );
      }
      known.add(t);
      if (found.has(node)) return;
      found.add(node);
      for (const input of node.inputs) visit(input, node.layer.name);
    };
    for (const t of this.outputs) visit(t, t.history?.node.layer.name ?? this.name);
    return [...found].sort((a, b) => nodeSerial(a) - nodeSerial(b));
  }

  /** Keras's `model.input` / `model.output`: the one tensor, or the list. */
  override get input(): KerasTensor | KerasTensor[] {
    return this.inputs.length === 1 ? this.inputs[0] : [...this.inputs];
  }

  override get output(): KerasTensor | KerasTensor[] {
    return this.singleOutput ? this.outputs[0] : [...this.outputs];
  }

  /** Keras's `output_names`: the layers that made the outputs. */
  override get outputNames(): string[] {
    return this.outputs.map((t) => t.history?.node.layer.name ?? t.name);
  }

  override get inputCount(): number {
    return this.inputs.length;
  }

  override get layers(): Layer[] {
    return [...this.layerList];
  }

  override computeOutputShape(_inputShape: ShapeSpec): ShapeSpec {
    if (this.outputs.length !== 1)
      throw new Error(`${this.name}: a model with several outputs has several output shapes`);
    return this.outputs[0].shape;
  }

  override get inputShape(): ShapeSpec {
    return this.inputs[0].shape;
  }

  override get outputShape(): ShapeSpec {
    return this.outputs[0].shape;
  }

  /** The given inputs as tensors in `inputs` order, checked against the Inputs' shapes. */
  private realInputs(given: unknown): Tensor[] {
    let list: unknown[];
    if (given instanceof Tensor || !(Array.isArray(given) || isOptionsObject(given)))
      list = [given];
    else if (Array.isArray(given)) list = given;
    else {
      const record = given as Record<string, unknown>;
      const names = this.inputKeys ?? this.inputs.map((t) => inputLayerOf(t)?.name ?? t.name);
      const missing = names.filter((n) => !(n in record));
      if (missing.length > 0)
        throw new KerasValueError(
          `Model "${this.name}": missing input(s) ${missing.join(', ')} in the dict given`,
        );
      list = names.map((n) => record[n]);
    }
    // For a one-input model a list is its data (nested numbers), unless it holds tensors.
    if (this.inputs.length === 1 && Array.isArray(given) && !given.some((v) => v instanceof Tensor))
      list = [given];
    if (list.length !== this.inputs.length) {
      throw new KerasValueError(
        `Layer "${this.name}" expects ${this.inputs.length} input(s), but it received ${list.length} input tensors. ` +
          `Inputs received: [${list.map(show).join(', ')}]`,
      );
    }
    return list.map((value, i) => {
      const x = toTensor(value);
      const spec = this.inputs[i].shape;
      const fits =
        x.ndim === spec.length && spec.every((d, axis) => d === null || d === x.shape[axis]);
      if (!fits) {
        throw new KerasValueError(
          `Input ${i} of layer "${this.name}" is incompatible with the layer: expected shape=${formatTuple(spec)}, found shape=${formatTuple(x.shape)}`,
        );
      }
      return x;
    });
  }

  protected override invoke(inputs: unknown, options?: CallOptions): Tensor {
    const training = isOptionsObject(options) && options.training === true;
    const device = this.weights[0]?.deviceObject;
    const values = new Map<KerasTensor, Tensor>();
    this.realInputs(inputs).forEach((x, i) => {
      values.set(this.inputs[i], device && x.deviceObject !== device ? x.to(device) : x);
    });
    for (const node of this.nodes) {
      const args = mapKerasTensors(node.args, (t) => values.get(t)) as unknown[];
      const result = (node.layer as Layer).callEager([
        ...args,
        // An explicit `training=` given when the graph was built wins, as in Keras.
        { training, ...(node.options ?? {}) },
      ]);
      if (Array.isArray(node.outputs)) {
        node.outputs.forEach((t: KerasTensor, i) => values.set(t, (result as Tensor[])[i]));
      } else values.set(node.outputs as KerasTensor, result as Tensor);
    }
    const outputs = this.outputs.map((t) => values.get(t) as Tensor);
    return (this.singleOutput ? outputs[0] : outputs) as Tensor;
  }

  protected override call(x: Tensor, training: boolean): Tensor {
    return this.invoke(x, { training });
  }

  override summary(options: SummaryOptions = {}): void {
    const print = options.printFn ?? writeOutput;
    for (const line of functionalSummaryLines(this, options)) print(line);
  }

  override summaryText(options: Omit<SummaryOptions, 'printFn'> = {}): string {
    return functionalSummaryLines(this, options).join('\n');
  }
}

registerFunctional((args) => new Functional(args));
