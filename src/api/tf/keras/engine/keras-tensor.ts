/**
 * Keras's symbolic tensors (functional API): `keras.Input(shape)` makes one, and calling a layer
 * on them records a `Node` (the layer, the call's arguments with KerasTensors in them, and the
 * output KerasTensors) instead of computing anything. A functional Model replays the nodes on
 * real tensors. A KerasTensor knows its shape (null for unknown sizes, the batch first), dtype and
 * the node that made it (Keras's `_keras_history`).
 */
import type { DType } from '../../../../engine';
import { uniqueName } from '../naming';

/** A Keras shape: sizes with null for "any" (the batch dimension, usually). */
export type SymbolicShape = readonly (number | null)[];

/** What a node's layer must offer (the Layer class, without importing it here). */
export interface NodeLayer {
  name: string;
  readonly className: string;
}

/** One call of a layer on symbolic inputs. */
export interface Node {
  layer: NodeLayer;
  /** Which call of the layer this is (Keras's node index: 0, then 1 for a shared layer's second use). */
  index: number;
  /** The positional arguments as given (KerasTensors inside, possibly in arrays). */
  args: readonly unknown[];
  /** The trailing options object (keyword arguments), if one was given. */
  options: Record<string, unknown> | null;
  /** Every KerasTensor among the arguments, in order. */
  inputs: readonly KerasTensor[];
  /** The outputs: one KerasTensor, or an array of them. */
  outputs: KerasTensor | readonly KerasTensor[];
}

/** Keras's `_keras_history`: the node that made a tensor and its place among the node's outputs. */
export interface KerasHistory {
  node: Node;
  tensorIndex: number;
}

const formatDim = (d: number | null): string => (d === null ? 'None' : String(d));

/** A Python tuple's repr of a shape: `(None, 784)`, `(None,)`, `()`. */
export function formatTuple(shape: SymbolicShape): string {
  const parts = shape.map(formatDim);
  return `(${parts.join(', ')}${parts.length === 1 ? ',' : ''})`;
}

export class KerasTensor {
  /** Lets other modules (and Python) tell a KerasTensor without importing this class. */
  readonly isKerasTensor = true;
  readonly shape: SymbolicShape;
  readonly dtype: DType;
  readonly sparse = false;
  readonly name: string;
  /** Set when a node produces the tensor (an Input's tensor is its InputLayer's node output). */
  history: KerasHistory | null = null;

  constructor(shape: SymbolicShape, dtype: DType, name?: string) {
    this.shape = [...shape];
    this.dtype = dtype;
    // Keras 3 names unnamed symbolic tensors keras_tensor, keras_tensor_1, …
    this.name = name ?? uniqueName('keras_tensor');
  }

  get ndim(): number {
    return this.shape.length;
  }

  toString(): string {
    return `<KerasTensor shape=${formatTuple(this.shape)}, dtype=${this.dtype}, sparse=${this.sparse ? 'True' : 'False'}, name=${this.name}>`;
  }
}

export function isKerasTensor(value: unknown): value is KerasTensor {
  return value instanceof KerasTensor;
}

/** Every KerasTensor in a call's arguments (inside arrays too), in order. */
export function kerasTensorsIn(value: unknown, out: KerasTensor[] = []): KerasTensor[] {
  if (value instanceof KerasTensor) out.push(value);
  else if (Array.isArray(value)) for (const v of value) kerasTensorsIn(v, out);
  return out;
}

/** The arguments with each KerasTensor replaced by `fn(tensor)` (arrays rebuilt, others kept). */
export function mapKerasTensors(value: unknown, fn: (t: KerasTensor) => unknown): unknown {
  if (value instanceof KerasTensor) return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapKerasTensors(v, fn));
  return value;
}
