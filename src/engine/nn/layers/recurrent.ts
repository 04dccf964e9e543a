/**
 * nn.RNN, nn.LSTM and nn.GRU with PyTorch's arguments, parameter names, init, gate orders and
 * results. Composed of engine ops (so autograd and both backends come for free): one product
 * projects every timestep's input at once, then each step adds the hidden state's product and
 * applies the gates, which the fusing backend runs as one chain.
 */
import { asNumber, describe } from '../../args';
import type { DeviceSpec } from '../../devices/device-name';
import { add, mul, relu, sigmoid, sub, tanh } from '../../ops/elementwise';
import { full } from '../../ops/creation';
import { matmul, t } from '../../ops/matmul';
import { gruCell } from '../../ops/gru-cell';
import { lstmCell } from '../../ops/lstm-cell';
import { dropout } from '../../ops/nn';
import { cat, narrow, reshape, select, stack, transpose } from '../../ops/shape-ops';
import { scopedAll } from '../../ops/support';
import { formatShape, ShapeError } from '../../shape';
import type { Tensor } from '../../tensor';
import { checkInputDevice } from '../device-errors';
import { uniform } from '../init';
import {
  bind,
  boolArg,
  checkFloatDtype,
  deviceArg,
  positiveInt,
  requireTensor,
} from '../layer-args';
import { libraryForward, Module } from '../module';
import { Parameter } from '../parameter';

type Mode = 'RNN_TANH' | 'RNN_RELU' | 'LSTM' | 'GRU';

/** Gates per mode: the rows of weight_ih are [gates·hidden, input]. */
const GATES: Record<Mode, number> = { RNN_TANH: 1, RNN_RELU: 1, LSTM: 4, GRU: 3 };

interface Weights {
  wIh: Parameter;
  wHh: Parameter;
  bIh: Parameter | null;
  bHh: Parameter | null;
}

/** Python's repr of a float (`0.0`, `0.25`). */
function pyFloat(v: number): string {
  return Number.isInteger(v) ? `${v}.0` : `${v}`;
}

/** The shared part of RNN, LSTM and GRU (PyTorch's RNNBase). */
export abstract class RNNBase extends Module {
  declare readonly mode: Mode;
  declare readonly inputSize: number;
  declare readonly hiddenSize: number;
  declare readonly numLayers: number;
  declare readonly bias: boolean;
  declare readonly batchFirst: boolean;
  declare readonly dropout: number;
  declare readonly bidirectional: boolean;

  protected constructor(name: string, mode: Mode | null, args: unknown[]) {
    super();
    const params = ['inputSize', 'hiddenSize', 'numLayers'];
    if (mode === null) params.push('nonlinearity');
    params.push('bias', 'batchFirst', 'dropout', 'bidirectional');
    if (name === 'LSTM') params.push('projSize');
    const a = bind({ name, params, keywordOnly: ['device', 'dtype'] }, args);
    checkFloatDtype(a.dtype, name);
    if (a.projSize !== undefined && a.projSize !== null && a.projSize !== 0)
      throw new Error(`${name}: proj_size=${String(a.projSize)} is not supported yet (only 0)`);
    let resolved: Mode;
    if (mode !== null) resolved = mode;
    else if (a.nonlinearity === undefined || a.nonlinearity === null || a.nonlinearity === 'tanh')
      resolved = 'RNN_TANH';
    else if (a.nonlinearity === 'relu') resolved = 'RNN_RELU';
    else throw new Error(`Unknown nonlinearity '${String(a.nonlinearity)}'`);
    const inputSize = positiveInt(a.inputSize, `${name}: inputSize`);
    const hiddenSize = positiveInt(a.hiddenSize, `${name}: hiddenSize`);
    const numLayers = positiveInt(a.numLayers, `${name}: numLayers`, 1);
    const p = a.dropout === undefined || a.dropout === null ? 0 : asNumber(a.dropout, 'dropout');
    if (!(p >= 0 && p <= 1))
      throw new RangeError(
        'dropout should be a number in range [0, 1] representing the probability of an element being zeroed',
      );
    const bias = boolArg(a.bias, `${name}: bias`, true);
    const bidirectional = boolArg(a.bidirectional, `${name}: bidirectional`, false);
    Object.defineProperties(this, {
      mode: { value: resolved, enumerable: false },
      inputSize: { value: inputSize, enumerable: false },
      hiddenSize: { value: hiddenSize, enumerable: false },
      numLayers: { value: numLayers, enumerable: false },
      bias: { value: bias, enumerable: false },
      batchFirst: { value: boolArg(a.batchFirst, `${name}: batchFirst`, false), enumerable: false },
      dropout: { value: p, enumerable: false },
      bidirectional: { value: bidirectional, enumerable: false },
    });
    // PyTorch's order and init: per layer, per direction, weight_ih, weight_hh, bias_ih,
    // bias_hh, each uniform(±1/√hidden).
    const device = deviceArg(a.device);
    const bound = 1 / Math.sqrt(hiddenSize);
    const rows = GATES[resolved] * hiddenSize;
    const self = this as unknown as Record<string, Parameter>;
    for (let layer = 0; layer < numLayers; layer++) {
      for (let dir = 0; dir < (bidirectional ? 2 : 1); dir++) {
        const suffix = `_l${layer}${dir === 1 ? '_reverse' : ''}`;
        const inSize = layer === 0 ? inputSize : hiddenSize * (bidirectional ? 2 : 1);
        const make = (shape: number[]) => new Parameter(uniform(shape, -bound, bound, device));
        self[`weight_ih${suffix}`] = make([rows, inSize]);
        self[`weight_hh${suffix}`] = make([rows, hiddenSize]);
        if (bias) {
          self[`bias_ih${suffix}`] = make([rows]);
          self[`bias_hh${suffix}`] = make([rows]);
        }
      }
    }
  }

  private weights(layer: number, dir: number): Weights {
    const suffix = `_l${layer}${dir === 1 ? '_reverse' : ''}`;
    const self = this as unknown as Record<string, Parameter | undefined>;
    const get = (n: string) => self[`${n}${suffix}`] ?? null;
    return {
      wIh: get('weight_ih') as Parameter,
      wHh: get('weight_hh') as Parameter,
      bIh: get('bias_ih'),
      bHh: get('bias_hh'),
    };
  }

  private get layerName(): string {
    return this.mode === 'LSTM' ? 'LSTM' : this.mode === 'GRU' ? 'GRU' : 'RNN';
  }

  /** Checks an initial state [layers·directions, batch, hidden] (or unbatched 2-D). */
  private checkState(h: Tensor, batched: boolean, batch: number, what: string): void {
    const d = this.numLayers * (this.bidirectional ? 2 : 1);
    const want = batched ? [d, batch, this.hiddenSize] : [d, this.hiddenSize];
    if (h.shape.join() !== want.join()) {
      throw new ShapeError(
        `${this.layerName}: expected ${what} of shape ${formatShape(want)}, got ${formatShape(h.shape)}`,
      );
    }
  }

  protected run(input: unknown, hx: unknown): Tensor[] {
    const name = this.layerName;
    const x0 = requireTensor(input, name);
    const first = this.weights(0, 0).wIh;
    checkInputDevice(name, x0, first);
    if (x0.ndim !== 2 && x0.ndim !== 3) {
      throw new ShapeError(
        `${name}: Expected input to be 2D or 3D, got ${x0.ndim}D tensor of shape ${formatShape(x0.shape)}`,
      );
    }
    if (x0.shape[x0.ndim - 1] !== this.inputSize) {
      throw new ShapeError(
        `${name}: input.size(-1) must be equal to input_size. Expected ${this.inputSize}, got ${x0.shape[x0.ndim - 1]}`,
      );
    }
    const batched = x0.ndim === 3;
    const lstm = this.mode === 'LSTM';
    let states: Tensor[] | null = null;
    if (hx !== undefined && hx !== null) {
      if (lstm) {
        if (!Array.isArray(hx) || hx.length !== 2)
          throw new TypeError(`LSTM: hx must be a tuple (h_0, c_0), got ${describe(hx)}`);
        states = [requireTensor(hx[0], name), requireTensor(hx[1], name)];
      } else {
        states = [requireTensor(hx, name)];
      }
    }
    const dirs = this.bidirectional ? 2 : 1;
    const H = this.hiddenSize;
    return scopedAll(() => {
      // Work in [T, B, feature]: unbatched input is a batch of 1, batch_first is transposed.
      let x = batched
        ? this.batchFirst
          ? transpose(x0, 0, 1)
          : x0
        : reshape(x0, [x0.shape[0], 1, -1]);
      const [T, B] = x.shape;
      const init = states?.map((s, i) => {
        this.checkState(s, batched, x0.shape[this.batchFirst ? 0 : 1], i === 0 ? 'hx' : 'cx');
        checkInputDevice(name, s, first);
        return batched ? s : reshape(s, [s.shape[0], 1, H]);
      });
      const zero = () => full([B, H], 0, { device: x.deviceObject });
      const lastH: Tensor[] = [];
      const lastC: Tensor[] = [];
      for (let layer = 0; layer < this.numLayers; layer++) {
        const outs: Tensor[] = [];
        for (let dir = 0; dir < dirs; dir++) {
          const k = layer * dirs + dir;
          const h0 = init ? select(init[0], 0, k) : zero();
          const c0 = lstm ? (init ? select(init[1], 0, k) : zero()) : null;
          const { out, h, c } = this.direction(x, this.weights(layer, dir), dir === 1, T, h0, c0);
          outs.push(out);
          lastH.push(h);
          if (c) lastC.push(c);
        }
        x = dirs === 1 ? outs[0] : cat(outs, 2);
        if (this.dropout > 0 && layer < this.numLayers - 1)
          x = dropout(x, this.dropout, this.training);
      }
      let output = x;
      if (!batched) output = reshape(output, [T, -1]);
      else if (this.batchFirst) output = transpose(output, 0, 1);
      const finish = (hs: Tensor[]) => {
        const s = stack(hs, 0);
        return batched ? s : reshape(s, [hs.length, H]);
      };
      return lstm ? [output, finish(lastH), finish(lastC)] : [output, finish(lastH)];
    });
  }

  /** One layer in one direction over x [T, B, in]: outputs [T, B, H] and the last states. */
  private direction(
    x: Tensor,
    w: Weights,
    reverse: boolean,
    T: number,
    h0: Tensor,
    c0: Tensor | null,
  ): { out: Tensor; h: Tensor; c: Tensor | null } {
    const H = this.hiddenSize;
    const gru = this.mode === 'GRU';
    // Every step's input projection in one product; the hidden bias joins it except for GRU,
    // whose candidate gate multiplies the hidden part (bias included) by r.
    let xp = matmul(x, t(w.wIh));
    if (w.bIh) xp = add(xp, w.bIh);
    if (w.bHh && !gru) xp = add(xp, w.bHh);
    const wHhT = t(w.wHh);
    const outs: Tensor[] = new Array<Tensor>(T);
    let h = h0;
    let c = c0;
    for (let s = 0; s < T; s++) {
      const step = reverse ? T - 1 - s : s;
      const xs = select(xp, 0, step);
      let hp = matmul(h, wHhT);
      if (gru) {
        if (w.bHh) hp = add(hp, w.bHh);
        // The gates and the update as one kernel each way (ops/gru-cell.ts).
        h = FUSED_GRU_CELL ? gruCell(xs, hp, h) : gruStepComposed(xs, hp, h);
      } else if (c) {
        // The gates and the state update as one kernel each way (ops/lstm-cell.ts).
        if (FUSED_LSTM_CELL) {
          const state = lstmCell(add(xs, hp), c);
          h = narrow(state, 1, 0, H);
          c = narrow(state, 1, H, H);
        } else {
          [h, c] = lstmStepComposed(add(xs, hp), c);
        }
      } else {
        const pre = add(xs, hp);
        h = this.mode === 'RNN_RELU' ? relu(pre) : tanh(pre);
      }
      outs[step] = h;
    }
    return { out: stack(outs, 0), h, c };
  }

  override extraRepr(): string {
    let s = `${this.inputSize}, ${this.hiddenSize}`;
    if (this.numLayers !== 1) s += `, num_layers=${this.numLayers}`;
    if (!this.bias) s += ', bias=False';
    if (this.batchFirst) s += ', batch_first=True';
    if (this.dropout !== 0) s += `, dropout=${pyFloat(this.dropout)}`;
    if (this.bidirectional) s += ', bidirectional=True';
    return s;
  }
}

export interface RNNOptions {
  inputSize?: number;
  hiddenSize?: number;
  numLayers?: number;
  nonlinearity?: 'tanh' | 'relu';
  bias?: boolean;
  batchFirst?: boolean;
  dropout?: number;
  bidirectional?: boolean;
  device?: DeviceSpec;
  dtype?: string;
}

/** Elman RNN: h' = tanh(W_ih x + b_ih + W_hh h + b_hh) (or relu). Returns [output, h_n]. */
export class RNN extends RNNBase {
  constructor(inputSize: number, hiddenSize: number, ...rest: unknown[]);
  constructor(options: RNNOptions);
  constructor(...args: unknown[]) {
    super('RNN', null, args);
  }

  override forward(input: Tensor, hx?: Tensor | null): [Tensor, Tensor] {
    const a = bind({ name: 'RNN.forward', params: ['input', 'hx'] }, [input, hx]);
    const [out, h] = this.run(a.input, a.hx);
    return [out, h];
  }
}

/** LSTM with gates i, f, g, o. Returns [output, [h_n, c_n]]. */
export class LSTM extends RNNBase {
  constructor(inputSize: number, hiddenSize: number, ...rest: unknown[]);
  constructor(options: Omit<RNNOptions, 'nonlinearity'> & { projSize?: number });
  constructor(...args: unknown[]) {
    super('LSTM', 'LSTM', args);
  }

  override forward(input: Tensor, hx?: [Tensor, Tensor] | null): [Tensor, [Tensor, Tensor]] {
    const a = bind({ name: 'LSTM.forward', params: ['input', 'hx'] }, [input, hx]);
    const [out, h, c] = this.run(a.input, a.hx);
    return [out, [h, c]];
  }
}

/** GRU with gates r, z, n; n = tanh(W_in x + b_in + r·(W_hn h + b_hn)). Returns [output, h_n]. */
export class GRU extends RNNBase {
  constructor(inputSize: number, hiddenSize: number, ...rest: unknown[]);
  constructor(options: Omit<RNNOptions, 'nonlinearity'>);
  constructor(...args: unknown[]) {
    super('GRU', 'GRU', args);
  }

  override forward(input: Tensor, hx?: Tensor | null): [Tensor, Tensor] {
    const a = bind({ name: 'GRU.forward', params: ['input', 'hx'] }, [input, hx]);
    const [out, h] = this.run(a.input, a.hx);
    return [out, h];
  }
}

libraryForward(RNN, LSTM, GRU);

/** Whether nn.LSTM runs its step as the fused kernel (ops/lstm-cell.ts) or as separate ops. */
const FUSED_LSTM_CELL = true;
/** Whether nn.GRU runs its step as the fused kernel (ops/gru-cell.ts) or as separate ops. */
const FUSED_GRU_CELL = true;

/**
 * The GRU step of separate ops, h' from x, hp [B, 3H] and h [B, H]: the fused kernel's baseline
 * (GRU(32, 64), batch 16, 20 steps, forward + backward: 658 WebGPU dispatches against 319;
 * SwiftShader 1182 → 582 ms, CPU 360 → 158 ms).
 */
function gruStepComposed(xs: Tensor, hp: Tensor, h: Tensor): Tensor {
  const H = h.shape[1];
  const gate = (src: Tensor, i: number) => narrow(src, 1, i * H, H);
  const r = sigmoid(add(gate(xs, 0), gate(hp, 0)));
  const z = sigmoid(add(gate(xs, 1), gate(hp, 1)));
  const n = tanh(add(gate(xs, 2), mul(r, gate(hp, 2))));
  // h' = (1 - z)·n + z·h = n + z·(h - n)
  return add(n, mul(z, sub(h, n)));
}

/**
 * The LSTM step of separate ops, [h', c'] from gates [B, 4H] and c [B, H]: the fused kernel's
 * baseline (LSTM(32, 64), batch 16, 20 steps, forward + backward: 735 dispatches on WebGPU
 * against the kernel's 360).
 */
function lstmStepComposed(g: Tensor, c: Tensor): [Tensor, Tensor] {
  const H = c.shape[1];
  const gate = (i: number) => narrow(g, 1, i * H, H);
  const c2 = add(mul(sigmoid(gate(1)), c), mul(sigmoid(gate(0)), tanh(gate(2))));
  return [mul(sigmoid(gate(3)), tanh(c2)), c2];
}
