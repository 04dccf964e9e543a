/**
 * Keras `Bidirectional(layer, mergeMode='concat', weights=None, backwardLayer=None)`: a copy of
 * the recurrent layer read forwards ('forward_lstm') and one read backwards ('backward_lstm'),
 * their outputs merged ('concat', 'sum', 'mul', 'ave', or null for the list of both). As in
 * Keras: the backward output sequence is reversed back to input order, both copies output zeros
 * at masked steps when returning sequences, the weights are the forward layer's then the
 * backward's, named 'bidirectional/forward_lstm/lstm_cell/kernel:0', and initial states are the
 * forward layer's followed by the backward layer's.
 */
import { ops, Tensor } from '../../../../engine';
import { isOptionsObject } from '../../../args';
import { ValueError } from '../../../tf-config';
import { kerasMask, setKerasMask } from './masking';
import {
  bindLayerArgs,
  Layer,
  toTensor,
  type CallOptions,
  type ShapeSpec,
  type Weight,
} from './layer';
import {
  RecurrentLayer,
  releaseUnreturnedStates,
  statesAsInputs,
  type RecurrentCallOptions,
} from './recurrent';

type MergeMode = 'concat' | 'sum' | 'mul' | 'ave' | null;
const MERGE_MODES = ['concat', 'sum', 'mul', 'ave'];

export class Bidirectional extends Layer {
  readonly forwardLayer: RecurrentLayer;
  readonly backwardLayer: RecurrentLayer;
  readonly mergeMode: MergeMode;
  readonly returnSequences: boolean;
  readonly returnState: boolean;
  override supportsMasking = true;

  constructor(...args: unknown[]) {
    const a = bindLayerArgs(
      'Bidirectional',
      ['layer', 'mergeMode', 'weights', 'backwardLayer'],
      [],
      args,
    );
    super('Bidirectional', a);
    const layer = a.layer;
    if (!(layer instanceof RecurrentLayer)) {
      throw new ValueError(
        `Please initialize \`Bidirectional\` layer with a \`tf.keras.layers.Layer\` instance. Received: ${String(layer)}`,
      );
    }
    const mode = a.mergeMode === undefined ? 'concat' : a.mergeMode;
    if (mode !== null && !MERGE_MODES.includes(mode as string)) {
      throw new ValueError(
        `Invalid merge mode. Received: ${String(mode)}. Merge mode should be one of {"sum", "mul", "ave", "concat", None}`,
      );
    }
    this.mergeMode = mode as MergeMode;
    if (a.weights !== undefined && a.weights !== null)
      throw new TypeError('Bidirectional: weights is not supported; use setWeights after building');
    // Keras rebuilds the forward layer from the given layer's config (so it carries no state).
    this.forwardLayer = layer.recreate({
      name: `forward_${layer.name}`,
      goBackwards: layer.goBackwards,
    });
    const backward = a.backwardLayer;
    if (backward === undefined || backward === null) {
      this.backwardLayer = layer.recreate({
        name: `backward_${layer.name}`,
        goBackwards: !layer.goBackwards,
      });
    } else {
      if (!(backward instanceof RecurrentLayer))
        throw new ValueError(
          `Bidirectional: backwardLayer must be a recurrent layer, got ${String(backward)}`,
        );
      if (backward.goBackwards === layer.goBackwards) {
        throw new ValueError(
          `Forward layer and backward layer should have different \`go_backwards\` value. Received: forward_layer.go_backwards ${pyBool(layer.goBackwards)}, backward_layer.go_backwards=${pyBool(backward.goBackwards)}`,
        );
      }
      if (
        backward.returnSequences !== layer.returnSequences ||
        backward.returnState !== layer.returnState
      )
        throw new ValueError(
          'Forward layer and backward layer should have the same `return_sequences` and `return_state`',
        );
      this.backwardLayer = backward.recreate({
        name: `backward_${backward.name}`,
        goBackwards: backward.goBackwards,
      });
    }
    this.returnSequences = layer.returnSequences;
    this.returnState = layer.returnState;
    // Keras: masked steps of a returned sequence are zeros, so the two directions line up.
    this.forwardLayer.zeroOutputForMask = this.returnSequences;
    this.backwardLayer.zeroOutputForMask = this.returnSequences;
    if (this.declaredInputShape === null) this.declaredInputShape = layer.declaredInputShape;
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    const f = this.forwardLayer.computeOutputShape(inputShape);
    const b = this.backwardLayer.computeOutputShape(inputShape);
    if (this.mergeMode !== 'concat') return f;
    const last = (s: ShapeSpec) => s[s.length - 1] as number;
    return [...f.slice(0, -1), last(f) + last(b)];
  }

  protected override buildWeights(inputShape: ShapeSpec): void {
    this.forwardLayer.build(inputShape);
    this.backwardLayer.build(inputShape);
  }

  override get namedWeights(): readonly Weight[] {
    return [...this.forwardLayer.namedWeights, ...this.backwardLayer.namedWeights].map((w) => ({
      ...w,
      name: `${this.name}/${w.name}`,
    }));
  }

  override get trainableWeights(): Tensor[] {
    return this.trainable
      ? [...this.forwardLayer.trainableWeights, ...this.backwardLayer.trainableWeights]
      : [];
  }

  override get nonTrainableWeights(): Tensor[] {
    return this.trainable
      ? [...this.forwardLayer.nonTrainableWeights, ...this.backwardLayer.nonTrainableWeights]
      : [...this.forwardLayer.weights, ...this.backwardLayer.weights];
  }

  override countParams(): number {
    if (!this.built) return super.countParams();
    return this.forwardLayer.countParams() + this.backwardLayer.countParams();
  }

  override computeMask(_x: Tensor, mask: Tensor | null): Tensor | null {
    return this.returnSequences ? mask : null;
  }

  protected call(x: Tensor, training: boolean, mask?: Tensor | null): Tensor {
    const { merged, states } = this.merge(x, { training, mask });
    releaseUnreturnedStates(states, Array.isArray(merged) ? merged : [merged]);
    return merged as Tensor;
  }

  /** Keras's call; a list when mergeMode is null or with returnState (see recurrent.ts). */
  protected override invoke(inputs: unknown, options?: CallOptions): Tensor {
    const opts: RecurrentCallOptions = isOptionsObject(options) ? { ...options } : {};
    // Keras's `layer([x, *initial_states])` (also how symbolic initial states arrive).
    if (Array.isArray(inputs) && inputs.length > 0 && inputs.every((t) => t instanceof Tensor)) {
      const [first, ...states] = inputs as Tensor[];
      inputs = first;
      if (states.length > 0) opts.initialState = states;
    }
    const x = toTensor(inputs);
    if (!this.built) this.build([null, ...x.shape.slice(1)]);
    const { merged, states } = this.merge(x, { ...opts, mask: opts.mask ?? kerasMask(x) });
    const outputs = Array.isArray(merged) ? merged : [merged];
    const mask = this.computeMask(x, opts.mask ?? kerasMask(x));
    if (mask) for (const y of outputs) setKerasMask(y, mask);
    if (this.returnState) return [...outputs, ...states] as unknown as Tensor;
    releaseUnreturnedStates(states, outputs);
    return merged as Tensor; // a list when mergeMode is null, as Keras returns
  }

  /** Symbolic initial states become graph inputs (see RecurrentLayer.dispatch). */
  protected override dispatch(args: unknown[]): Tensor {
    return super.dispatch(statesAsInputs(args));
  }

  private merge(
    x: Tensor,
    opts: RecurrentCallOptions,
  ): { merged: Tensor | Tensor[]; states: Tensor[] } {
    let forwardInitial: Tensor[] | undefined;
    let backwardInitial: Tensor[] | undefined;
    if (opts.initialState) {
      const all = Array.isArray(opts.initialState)
        ? (opts.initialState as readonly Tensor[])
        : [opts.initialState as Tensor];
      if (all.length % 2 !== 0) {
        throw new ValueError(
          `When passing \`initial_state\` to a Bidirectional RNN, the state should be a list containing the states of the underlying RNNs. Received: ${all.length} states`,
        );
      }
      forwardInitial = all.slice(0, all.length / 2);
      backwardInitial = all.slice(all.length / 2);
    }
    const common = { training: opts.training, mask: opts.mask };
    const f = this.forwardLayer.forwardPass(x, { ...common, initialState: forwardInitial });
    const b = this.backwardLayer.forwardPass(x, { ...common, initialState: backwardInitial });
    const y = f.output;
    // The backward layer's sequence comes in processing order: put it back in input order.
    const yRev = this.returnSequences ? ops.flip(b.output, [1]) : b.output;
    let merged: Tensor | Tensor[];
    if (this.mergeMode === 'concat') merged = ops.cat([y, yRev], y.ndim - 1);
    else if (this.mergeMode === 'sum') merged = ops.add(y, yRev);
    else if (this.mergeMode === 'mul') merged = ops.mul(y, yRev);
    else if (this.mergeMode === 'ave') merged = ops.mul(ops.add(y, yRev), 0.5);
    else merged = [y, yRev];
    return { merged, states: [...f.states, ...b.states] };
  }
}

function pyBool(v: boolean): string {
  return v ? 'True' : 'False';
}
