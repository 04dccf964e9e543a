/**
 * Keras's `SimpleRNN`, `LSTM` and `GRU` (batch-major [batch, timesteps, features] inputs) with
 * Keras's arguments, weights and gate orders: `kernel` [in, G·units], `recurrent_kernel`
 * [units, G·units] and `bias` (LSTM [4u] in blocks i, f, c, o; GRU [2, 3u] for TF2's
 * `reset_after=True`, rows input and recurrent bias, blocks z, r, h; [3u] otherwise).
 *
 * One product projects every step's input; each step then adds the state's product and applies
 * the gates. With Keras's default activations the step is the engine's fused kernel (LSTM's gate
 * order is PyTorch's; GRU's z and r blocks are swapped once per call to PyTorch's r, z, n, whose
 * update (1 - z)·n + z·h is Keras's reset_after form); other activations use separate ops.
 *
 * Masks (Keras's `backend.rnn`): at a masked step the states are carried over unchanged and the
 * output repeats the previous step's output (zeros before the first real step), or is zero when
 * `zeroOutputForMask` (Bidirectional sets it when returning sequences).
 */
import { ops, Tensor } from '../../../../engine';
import { gruCell } from '../../../../engine/ops/gru-cell';
import { lstmCell } from '../../../../engine/ops/lstm-cell';
import { asBool, asInt, asNumber, isOptionsObject, optional, type BoundArgs } from '../../../args';
import { ValueError } from '../../../tf-config';
import { getActivation, type Activation } from '../activations';
import { kerasTensorsIn } from '../engine/keras-tensor';
import { type InitializerFn } from '../initializers';
import { kerasMask, setKerasMask } from './masking';
import { recurrentInitializer } from './orthogonal';
import { bindLayerArgs, Layer, toTensor, type CallOptions, type ShapeSpec } from './layer';

type Kind = 'SimpleRNN' | 'LSTM' | 'GRU';

const GATES: Record<Kind, number> = { SimpleRNN: 1, LSTM: 4, GRU: 3 };
const CELL: Record<Kind, string> = {
  SimpleRNN: 'simple_rnn_cell',
  LSTM: 'lstm_cell',
  GRU: 'gru_cell',
};

/** A recurrent layer's call options: Keras's `mask` and `initial_state` keywords. */
export interface RecurrentCallOptions extends CallOptions {
  mask?: Tensor | null;
  initialState?: Tensor | readonly Tensor[] | null;
}

/** What one pass over a sequence gives: the output (sequence or last step) and final states. */
export interface RecurrentResult {
  output: Tensor;
  states: Tensor[];
}

const UNSUPPORTED = [
  'kernelRegularizer',
  'recurrentRegularizer',
  'biasRegularizer',
  'activityRegularizer',
  'kernelConstraint',
  'recurrentConstraint',
  'biasConstraint',
] as const;

/**
 * `[x, { initialState: [h, c], ...rest }]` with symbolic states → `[[x, h, c], rest]` (see
 * RecurrentLayer.dispatch); other calls unchanged.
 */
export function statesAsInputs(args: unknown[]): unknown[] {
  const [x, options, ...more] = args;
  if (more.length > 0 || !isOptionsObject(options)) return args;
  const { initialState, ...rest } = options as RecurrentCallOptions;
  if (!initialState || kerasTensorsIn(initialState).length === 0) return args;
  const states = Array.isArray(initialState) ? (initialState as unknown[]) : [initialState];
  return [[x, ...states], rest];
}

/**
 * Releases the final states a call does not return (no `returnState`): no program can reach them,
 * yet with a mask each is a `where` whose saved tensors are on no path from the loss, so backward
 * never frees them and they would stay on the device until the garbage collector takes the state
 * (keras-new-layers-memory.test.ts saw 64 bytes a step for one LSTM). A state that is also
 * returned (unmasked, the last output is the last h) is kept.
 */
export function releaseUnreturnedStates(states: readonly Tensor[], returned: readonly Tensor[]) {
  for (const s of states) if (!returned.includes(s) && !s.isDisposed) s.dispose();
}

/** Keras's positional parameters of each layer, in its signature's order. */
function paramsOf(kind: Kind): string[] {
  const head = ['units', 'activation'];
  if (kind !== 'SimpleRNN') head.push('recurrentActivation');
  head.push('useBias', 'kernelInitializer', 'recurrentInitializer', 'biasInitializer');
  if (kind === 'LSTM') head.push('unitForgetBias');
  const tail = ['dropout', 'recurrentDropout', 'returnSequences', 'returnState', 'goBackwards'];
  tail.push('stateful');
  if (kind === 'LSTM') tail.push('timeMajor', 'unroll');
  else if (kind === 'GRU') tail.push('unroll', 'timeMajor', 'resetAfter');
  else tail.push('unroll');
  return [...head, ...UNSUPPORTED, ...tail];
}

function rate(value: unknown, what: string): number {
  const p = optional(value, asNumber, what, 0);
  if (!(p >= 0 && p <= 1)) throw new ValueError(`${what} must be in [0, 1], got ${p}`);
  return p;
}

/** Keras's RNN base (for the three built-in cells): arguments, weights, the loop over time. */
export abstract class RecurrentLayer extends Layer {
  readonly kind: Kind;
  readonly units: number;
  readonly activation: Activation;
  readonly recurrentActivation: Activation;
  readonly useBias: boolean;
  readonly unitForgetBias: boolean;
  readonly resetAfter: boolean;
  readonly dropout: number;
  readonly recurrentDropout: number;
  readonly returnSequences: boolean;
  readonly returnState: boolean;
  readonly goBackwards: boolean;
  readonly unroll: boolean;
  /** Masked steps output zeros instead of repeating the last output (set by Bidirectional). */
  zeroOutputForMask = false;
  override supportsMasking = true;
  kernel: Tensor | null = null;
  recurrentKernel: Tensor | null = null;
  bias: Tensor | null = null;
  private readonly kernelInitializer: InitializerFn;
  private readonly recurrentKernelInitializer: InitializerFn;
  private readonly biasInitializer: InitializerFn;
  /** The bound arguments, to make copies (Bidirectional's forward and backward layers). */
  private readonly config: BoundArgs;

  protected constructor(kind: Kind, args: readonly unknown[]) {
    const a = bindLayerArgs(kind, paramsOf(kind), [], args);
    super(kind, a);
    this.kind = kind;
    this.config = a;
    this.units = asInt(a.units, `${kind}: units`);
    if (!(this.units > 0))
      throw new ValueError(
        `Received an invalid value for argument \`units\`, expected a positive integer, got ${String(a.units)}.`,
      );
    this.activation = getActivation(a.activation === undefined ? 'tanh' : a.activation, kind);
    this.recurrentActivation = getActivation(
      a.recurrentActivation === undefined ? 'sigmoid' : a.recurrentActivation,
      kind,
    );
    this.useBias = optional(a.useBias, asBool, `${kind}: useBias`, true);
    this.unitForgetBias = optional(a.unitForgetBias, asBool, `${kind}: unitForgetBias`, true);
    this.resetAfter = optional(a.resetAfter, asBool, `${kind}: resetAfter`, true);
    this.dropout = rate(a.dropout, `${kind}: dropout`);
    this.recurrentDropout = rate(a.recurrentDropout, `${kind}: recurrentDropout`);
    this.returnSequences = optional(a.returnSequences, asBool, `${kind}: returnSequences`, false);
    this.returnState = optional(a.returnState, asBool, `${kind}: returnState`, false);
    this.goBackwards = optional(a.goBackwards, asBool, `${kind}: goBackwards`, false);
    // Unrolling changes how TensorFlow builds the graph, not the result: every step runs here.
    this.unroll = optional(a.unroll, asBool, `${kind}: unroll`, false);
    if (optional(a.stateful, asBool, `${kind}: stateful`, false))
      throw new TypeError(
        `${kind}: stateful=True is not supported (states are not kept between calls)`,
      );
    if (optional(a.timeMajor, asBool, `${kind}: timeMajor`, false))
      throw new TypeError(
        `${kind}: timeMajor=True is not supported (inputs are [batch, time, features])`,
      );
    for (const name of UNSUPPORTED) {
      if (a[name] !== undefined && a[name] !== null)
        throw new TypeError(`${kind}: ${name} is not supported`);
    }
    this.kernelInitializer = recurrentInitializer(
      a.kernelInitializer ?? 'glorot_uniform',
      `${kind}: kernelInitializer`,
    );
    this.recurrentKernelInitializer = recurrentInitializer(
      a.recurrentInitializer ?? 'orthogonal',
      `${kind}: recurrentInitializer`,
    );
    this.biasInitializer = recurrentInitializer(
      a.biasInitializer ?? 'zeros',
      `${kind}: biasInitializer`,
    );
  }

  /** A fresh, unbuilt layer with these arguments and the given changes (Keras's from_config). */
  recreate(changes: { name: string; goBackwards: boolean }): RecurrentLayer {
    const Ctor = this.constructor as new (...args: unknown[]) => RecurrentLayer;
    const copy = new Ctor({ ...this.config, ...changes });
    return copy;
  }

  private get stateCount(): number {
    return this.kind === 'LSTM' ? 2 : 1;
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    return this.returnSequences
      ? [inputShape[0], inputShape[1], this.units]
      : [inputShape[0], this.units];
  }

  protected override buildWeights(inputShape: ShapeSpec): void {
    const inFeatures = inputShape[inputShape.length - 1];
    if (inFeatures === null || inFeatures === undefined) {
      throw new ValueError(
        `The last dimension of the inputs to a ${this.kind} layer should be defined. Found None. Full input shape received: ${JSON.stringify(inputShape)}`,
      );
    }
    const u = this.units;
    const g = GATES[this.kind] * u;
    const cell = CELL[this.kind];
    this.kernel = this.addWeight(`${cell}/kernel`, [inFeatures, g], this.kernelInitializer);
    this.recurrentKernel = this.addWeight(
      `${cell}/recurrent_kernel`,
      [u, g],
      this.recurrentKernelInitializer,
    );
    if (this.useBias) {
      const init = this.biasInitializer;
      let biasInit = init;
      if (this.kind === 'LSTM' && this.unitForgetBias) {
        // Keras: the forget gate's block starts at one.
        biasInit = (shape, device) =>
          ops.cat([init([u], device), ops.ones([u], { device }), init([2 * u], device)], 0);
      }
      const shape = this.kind === 'GRU' && this.resetAfter ? [2, g] : [g];
      this.bias = this.addWeight(`${cell}/bias`, shape, biasInit);
    }
    this.inputSpec = { ndim: 3, axes: { [-1]: inFeatures } };
  }

  /** Keras's `compute_mask`: the input's mask when returning sequences, else none. */
  override computeMask(_x: Tensor, mask: Tensor | null): Tensor | null {
    return this.returnSequences ? mask : null;
  }

  protected call(x: Tensor, training: boolean, mask?: Tensor | null): Tensor {
    const result = this.run(x, training, mask ?? null, null);
    releaseUnreturnedStates(result.states, [result.output]);
    return result.output;
  }

  /**
   * Keras's call: `layer(x, { training, mask, initialState })` gives the output, or with
   * `returnState` the list [output, h] (LSTM: [output, h, c]) as Keras does. Layer's call
   * signature types the common single-tensor case, so the list is returned through it.
   */
  protected override invoke(inputs: unknown, options?: CallOptions): Tensor {
    const result = this.forwardPass(inputs, options);
    if (this.returnState) return [result.output, ...result.states] as unknown as Tensor;
    releaseUnreturnedStates(result.states, [result.output]);
    return result.output;
  }

  /**
   * On symbolic inputs (the functional API), symbolic initial states given as `initialState`
   * become inputs of the graph node, in Keras's other spelling `layer([x, h, c])`, so the graph
   * links them; `forwardPass` reads that list form back.
   */
  protected override dispatch(args: unknown[]): Tensor {
    return super.dispatch(statesAsInputs(args));
  }

  /** Checks, builds and runs the layer: output and final states (Bidirectional uses it). */
  forwardPass(inputs: unknown, options?: RecurrentCallOptions): RecurrentResult {
    const opts: RecurrentCallOptions = isOptionsObject(options) ? { ...options } : {};
    const training = optional(opts.training, asBool, 'training', false);
    // Keras's `layer([x, *initial_states])`.
    if (Array.isArray(inputs) && inputs.length > 0 && inputs.every((t) => t instanceof Tensor)) {
      const [first, ...states] = inputs as Tensor[];
      inputs = first;
      if (states.length > 0) opts.initialState = states;
    }
    let x = toTensor(inputs);
    if (!this.built) this.build([null, ...x.shape.slice(1)]);
    this.checkInput(x);
    let mask = opts.mask ?? kerasMask(x);
    const device = (this.kernel as Tensor).deviceObject;
    if (x.deviceObject !== device) x = x.to(device);
    if (mask && mask.deviceObject !== device) mask = mask.to(device);
    const initial = this.initialStates(opts.initialState ?? null, x);
    const result = this.run(x, training, mask, initial);
    const outMask = this.computeMask(x, mask);
    if (outMask) setKerasMask(result.output, outMask);
    return result;
  }

  private initialStates(value: Tensor | readonly Tensor[] | null, x: Tensor): Tensor[] | null {
    if (value === null) return null;
    const list = Array.isArray(value) ? (value as readonly Tensor[]) : [value as Tensor];
    if (list.length !== this.stateCount) {
      throw new ValueError(
        `Layer ${this.name} expects ${this.stateCount} state(s), but it received ${list.length} initial state(s).`,
      );
    }
    const device = x.deviceObject;
    return list.map((s, i) => {
      const t = toTensor(s);
      if (t.ndim !== 2 || t.shape[0] !== x.shape[0] || t.shape[1] !== this.units) {
        throw new ValueError(
          `${this.kind}: initial state ${i} should have shape (${x.shape[0]}, ${this.units}), got (${t.shape.join(', ')})`,
        );
      }
      return t.deviceObject === device ? t : t.to(device);
    });
  }

  /** The loop over time (Keras's backend.rnn over the cell). */
  run(
    x0: Tensor,
    training: boolean,
    mask: Tensor | null,
    initial: Tensor[] | null,
  ): RecurrentResult {
    const [B, T, inFeatures] = x0.shape;
    const u = this.units;
    const device = x0.deviceObject;
    let x = x0.dtype === 'float32' ? x0 : ops.cast(x0, 'float32');
    // Keras's implementation 2: one dropout mask per sequence for the input and one for the
    // state, the same at every step.
    if (training && this.dropout > 0) {
      const keep = ops.dropout(ops.ones([B, inFeatures], { device }), this.dropout, true);
      x = ops.mul(x, ops.unsqueeze(keep, 1));
    }
    const recMask =
      training && this.recurrentDropout > 0
        ? ops.dropout(ops.ones([B, u], { device }), this.recurrentDropout, true)
        : null;
    if (T === 0) throw new ValueError(`${this.kind}: the input has no timesteps`);
    const step = this.stepFunction();
    // Every step's input projection (and input bias) in one product.
    let xp = ops.matmul(ops.reshape(x, [B * T, inFeatures]), step.kernel);
    if (step.inputBias) xp = ops.add(xp, step.inputBias);
    xp = ops.reshape(xp, [B, T, -1]);
    let states =
      initial ?? Array.from({ length: this.stateCount }, () => ops.zeros([B, u], { device }));
    const steps = mask ? (mask.dtype === 'float32' ? mask : ops.cast(mask, 'float32')) : null;
    let previous: Tensor | null = null;
    const outputs: Tensor[] = [];
    for (let s = 0; s < T; s++) {
      const t = this.goBackwards ? T - 1 - s : s;
      const fresh = step.apply(ops.select(xp, 1, t), states, recMask);
      let output = fresh[0];
      if (steps) {
        const m = ops.reshape(ops.select(steps, 1, t), [B, 1]);
        const old = states;
        states = fresh.map((v, i) => ops.where(m, v, old[i]));
        output = ops.where(m, output, this.zeroOutputForMask || previous === null ? 0 : previous);
      } else {
        states = fresh;
      }
      previous = output;
      outputs.push(output);
    }
    const output = this.returnSequences ? ops.stack(outputs, 1) : outputs[T - 1];
    return { output, states };
  }

  /** The per-step function with its weights in the layout the step wants. */
  private stepFunction(): {
    kernel: Tensor;
    inputBias: Tensor | null;
    apply: (xs: Tensor, states: Tensor[], recMask: Tensor | null) => Tensor[];
  } {
    const u = this.units;
    const act = this.activation.fn;
    const rec = this.recurrentActivation.fn;
    const kernel = this.kernel as Tensor;
    const recurrent = this.recurrentKernel as Tensor;
    const bias = this.bias;
    const fused = this.activation.name === 'tanh' && this.recurrentActivation.name === 'sigmoid';
    const block = (t: Tensor, i: number, n = 1) => ops.narrow(t, t.ndim - 1, i * u, n * u);
    const dropped = (h: Tensor, m: Tensor | null) => (m ? ops.mul(h, m) : h);
    if (this.kind === 'SimpleRNN') {
      return {
        kernel,
        inputBias: bias,
        apply: (xs, [h], m) => [act(ops.add(xs, ops.matmul(dropped(h, m), recurrent)))],
      };
    }
    if (this.kind === 'LSTM') {
      return {
        kernel,
        inputBias: bias,
        apply: (xs, [h, c], m) => {
          const z = ops.add(xs, ops.matmul(dropped(h, m), recurrent));
          if (fused) {
            // Keras's blocks i, f, c, o are PyTorch's i, f, g, o (ops/lstm-cell.ts).
            const state = lstmCell(z, c);
            return [ops.narrow(state, 1, 0, u), ops.narrow(state, 1, u, u)];
          }
          const c2 = ops.add(
            ops.mul(rec(block(z, 1)), c),
            ops.mul(rec(block(z, 0)), act(block(z, 2))),
          );
          return [ops.mul(rec(block(z, 3)), act(c2)), c2];
        },
      };
    }
    // GRU.
    const inputBias = bias && this.resetAfter ? ops.select(bias, 0, 0) : bias;
    const recurrentBias = bias && this.resetAfter ? ops.select(bias, 0, 1) : null;
    if (this.resetAfter && fused) {
      // PyTorch's r, z, n blocks for ops/gru-cell.ts: swap Keras's z and r once per call.
      const rz = (t: Tensor) => ops.cat([block(t, 1), block(t, 0), block(t, 2)], t.ndim - 1);
      const recurrentRz = rz(recurrent);
      const recurrentBiasRz = recurrentBias ? rz(recurrentBias) : null;
      return {
        kernel: rz(kernel),
        inputBias: inputBias ? rz(inputBias) : null,
        apply: (xs, [h], m) => {
          let hp = ops.matmul(dropped(h, m), recurrentRz);
          if (recurrentBiasRz) hp = ops.add(hp, recurrentBiasRz);
          return [gruCell(xs, hp, h)];
        },
      };
    }
    return {
      kernel,
      inputBias,
      apply: (xb, [h], m) => {
        const hd = dropped(h, m);
        let z: Tensor;
        let r: Tensor;
        let candidate: Tensor;
        if (this.resetAfter) {
          // TF2's form: h̃ = act(x_h + r ⊙ (U_h h + b_rh)).
          let inner = ops.matmul(hd, recurrent);
          if (recurrentBias) inner = ops.add(inner, recurrentBias);
          z = rec(ops.add(block(xb, 0), block(inner, 0)));
          r = rec(ops.add(block(xb, 1), block(inner, 1)));
          candidate = act(ops.add(block(xb, 2), ops.mul(r, block(inner, 2))));
        } else {
          // The original form: h̃ = act(x_h + U_h (r ⊙ h)).
          const inner = ops.matmul(hd, block(recurrent, 0, 2));
          z = rec(ops.add(block(xb, 0), block(inner, 0)));
          r = rec(ops.add(block(xb, 1), block(inner, 1)));
          candidate = act(ops.add(block(xb, 2), ops.matmul(ops.mul(r, hd), block(recurrent, 2))));
        }
        // h = z ⊙ h_prev + (1 − z) ⊙ h̃ = h̃ + z ⊙ (h_prev − h̃)
        return [ops.add(candidate, ops.mul(z, ops.sub(h, candidate)))];
      },
    };
  }
}

/** `tf.keras.layers.SimpleRNN(units, activation='tanh', …)`: h = act(x·W + h·U + b). */
export class SimpleRNN extends RecurrentLayer {
  constructor(...args: unknown[]) {
    super('SimpleRNN', args);
  }
}

/** `tf.keras.layers.LSTM(units, …)`: gates i, f, c, o; returns [output, h, c] with returnState. */
export class LSTM extends RecurrentLayer {
  constructor(...args: unknown[]) {
    super('LSTM', args);
  }
}

/** `tf.keras.layers.GRU(units, …, resetAfter=true)`: gates z, r, h; TF2's reset-after form. */
export class GRU extends RecurrentLayer {
  constructor(...args: unknown[]) {
    super('GRU', args);
  }
}
