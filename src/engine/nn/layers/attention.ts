/**
 * nn.MultiheadAttention with PyTorch's parameters (in_proj_weight, in_proj_bias, and out_proj, a
 * NonDynamicallyQuantizableLinear), init, masks and results, composed of engine ops
 * (ops/attention.ts), so autograd and both backends come for free.
 */
import { asNumber } from '../../args';
import { noGrad } from '../../autograd';
import type { DeviceSpec } from '../../devices/device-name';
import { additiveMask, attentionWithWeights, causalMask } from '../../ops/attention';
import { expand } from '../../ops/broadcast';
import { add } from '../../ops/elementwise';
import { fillInto } from '../../ops/inplace';
import { matmul, t } from '../../ops/matmul';
import { mean } from '../../ops/reduce';
import { narrow, reshape, transpose } from '../../ops/shape-ops';
import { scopedAll } from '../../ops/support';
import { formatShape, ShapeError } from '../../shape';
import type { Tensor } from '../../tensor';
import { checkInputDevice } from '../device-errors';
import { glorotUniform, zeros } from '../init';
import {
  bind,
  boolArg,
  checkFloatDtype,
  deviceArg,
  positiveInt,
  requireTensor,
  unsupported,
} from '../layer-args';
import { libraryForward, Module } from '../module';
import { Parameter } from '../parameter';
import { Linear } from './linear';

/** MultiheadAttention's output projection: a Linear under PyTorch's name for it. */
export class NonDynamicallyQuantizableLinear extends Linear {}

export interface MultiheadAttentionOptions {
  embedDim?: number;
  numHeads?: number;
  dropout?: number;
  bias?: boolean;
  batchFirst?: boolean;
  device?: DeviceSpec;
  dtype?: string;
}

export class MultiheadAttention extends Module {
  declare in_proj_weight: Parameter;
  declare in_proj_bias: Parameter | null;
  declare out_proj: NonDynamicallyQuantizableLinear;
  declare readonly embedDim: number;
  declare readonly numHeads: number;
  declare readonly headDim: number;
  declare readonly dropout: number;
  declare readonly batchFirst: boolean;

  constructor(embedDim: number, numHeads: number, ...rest: unknown[]);
  constructor(options: MultiheadAttentionOptions);
  constructor(...args: unknown[]) {
    super();
    const name = 'MultiheadAttention';
    const a = bind(
      {
        name,
        params: [
          'embedDim',
          'numHeads',
          'dropout',
          'bias',
          'addBiasKv',
          'addZeroAttn',
          'kdim',
          'vdim',
          'batchFirst',
        ],
        keywordOnly: ['device', 'dtype'],
      },
      args,
    );
    unsupported(a, name, { addBiasKv: false, addZeroAttn: false });
    checkFloatDtype(a.dtype, name);
    const embedDim = positiveInt(a.embedDim, `${name}: embedDim`);
    const numHeads = positiveInt(a.numHeads, `${name}: numHeads`);
    for (const key of ['kdim', 'vdim'] as const) {
      if (a[key] !== undefined && a[key] !== null && a[key] !== embedDim)
        throw new Error(`${name}: ${key} other than embed_dim is not supported yet`);
    }
    if (embedDim % numHeads !== 0) throw new Error('embed_dim must be divisible by num_heads');
    const p = a.dropout === undefined || a.dropout === null ? 0 : asNumber(a.dropout, 'dropout');
    const bias = boolArg(a.bias, `${name}: bias`, true);
    const device = deviceArg(a.device);
    Object.defineProperties(this, {
      embedDim: { value: embedDim, enumerable: false },
      numHeads: { value: numHeads, enumerable: false },
      headDim: { value: embedDim / numHeads, enumerable: false },
      dropout: { value: p, enumerable: false },
      batchFirst: { value: boolArg(a.batchFirst, `${name}: batchFirst`, false), enumerable: false },
    });
    // PyTorch's _reset_parameters: xavier_uniform_ in_proj_weight, zero biases.
    this.in_proj_weight = new Parameter(
      glorotUniform([3 * embedDim, embedDim], embedDim, 3 * embedDim, device),
    );
    this.in_proj_bias = bias ? new Parameter(zeros([3 * embedDim], device)) : null;
    this.out_proj = new NonDynamicallyQuantizableLinear(embedDim, embedDim, {
      bias,
      device: device.name,
    });
    const outBias = this.out_proj.bias;
    if (outBias) noGrad(() => fillInto(outBias, 0));
  }

  override forward(...args: unknown[]): [Tensor, Tensor | null] {
    const name = 'MultiheadAttention';
    const a = bind(
      {
        name: 'MultiheadAttention.forward',
        params: [
          'query',
          'key',
          'value',
          'keyPaddingMask',
          'needWeights',
          'attnMask',
          'averageAttnWeights',
          'isCausal',
        ],
      },
      args,
    );
    const query = requireTensor(a.query, name);
    const key = requireTensor(a.key, name);
    const value = requireTensor(a.value, name);
    const opt = (v: unknown) => (v === undefined || v === null ? null : requireTensor(v, name));
    const keyPadding = opt(a.keyPaddingMask);
    const attnMask0 = opt(a.attnMask);
    const needWeights = boolArg(a.needWeights, `${name}: needWeights`, true);
    const average = boolArg(a.averageAttnWeights, `${name}: averageAttnWeights`, true);
    const isCausal = boolArg(a.isCausal, `${name}: isCausal`, false);
    checkInputDevice(name, query, this.in_proj_weight);
    const E = this.embedDim;
    const batched = query.ndim === 3;
    for (const [what, x] of [
      ['query', query],
      ['key', key],
      ['value', value],
    ] as const) {
      if (x.ndim !== query.ndim || (x.ndim !== 2 && x.ndim !== 3) || x.shape[x.ndim - 1] !== E) {
        throw new ShapeError(
          `${name}: expected ${what} of shape [L, N, ${E}]${this.batchFirst ? ' (batch_first: [N, L, E])' : ''} ` +
            `or unbatched [L, ${E}], got ${formatShape(x.shape)}`,
        );
      }
    }
    const H = this.numHeads;
    const D = this.headDim;
    const [out, weights] = scopedAll(() => {
      // Sequence-first [L, N, E] inside, as PyTorch's multi_head_attention_forward.
      const seqFirst = (x: Tensor) =>
        !batched ? reshape(x, [x.shape[0], 1, E]) : this.batchFirst ? transpose(x, 0, 1) : x;
      const [q0, k0, v0] = [seqFirst(query), seqFirst(key), seqFirst(value)];
      const [L, N] = q0.shape;
      const S = k0.shape[0];
      if (k0.shape[1] !== N || v0.shape[1] !== N || v0.shape[0] !== S) {
        throw new ShapeError(
          `${name}: query, key and value must share the batch, and key and value the sequence: got ` +
            `${formatShape(query.shape)}, ${formatShape(key.shape)}, ${formatShape(value.shape)}`,
        );
      }
      const project = (x: Tensor, i: number) => {
        const w = narrow(this.in_proj_weight, 0, i * E, E);
        const y = matmul(x, t(w));
        const b = this.in_proj_bias;
        const yb = b ? add(y, narrow(b, 0, i * E, E)) : y;
        // [T, N, E] → [N·H, T, D]
        return transpose(reshape(yb, [x.shape[0], N * H, D]), 0, 1);
      };
      const [q, k, v] = [project(q0, 0), project(k0, 1), project(v0, 2)];
      let mask: Tensor | null = null;
      if (isCausal && !attnMask0) mask = causalMask(L, S, q);
      if (attnMask0) {
        const m = attnMask0;
        const ok2 = m.ndim === 2 && m.shape[0] === L && m.shape[1] === S;
        const ok3 = m.ndim === 3 && m.shape[0] === N * H && m.shape[1] === L && m.shape[2] === S;
        if (!ok2 && !ok3) {
          throw new ShapeError(
            `${name}: attn_mask should be [${L}, ${S}] or [${N * H}, ${L}, ${S}], got ${formatShape(m.shape)}`,
          );
        }
        // nn.MultiheadAttention's bool masks say what to ignore (True), unlike F's.
        mask = additiveMask(m, false);
      }
      if (keyPadding) {
        const kp = batched ? keyPadding : reshape(keyPadding, [1, -1]);
        if (kp.ndim !== 2 || kp.shape[0] !== N || kp.shape[1] !== S) {
          throw new ShapeError(
            `${name}: key_padding_mask should be [${N}, ${S}]${batched ? '' : ` or [${S}]`}, got ${formatShape(keyPadding.shape)}`,
          );
        }
        const pad = reshape(additiveMask(kp, false), [N, 1, 1, S]);
        // Both masks meet in [N, H, L, S], then fold to the scores' [N·H, L, S].
        const base = mask ? reshape(mask, mask.ndim === 2 ? [1, 1, L, S] : [N, H, L, S]) : null;
        const merged = expand(base ? add(base, pad) : pad, [N, H, L, S]);
        mask = reshape(merged, [N * H, L, S]);
      }
      const [o, w] = attentionWithWeights(q, k, v, mask, this.dropout, this.training);
      // [N·H, L, D] → [L, N, E]
      const merged = reshape(transpose(o, 0, 1), [L, N, E]);
      let y = this.out_proj.forward(merged);
      if (!batched) y = reshape(y, [L, E]);
      else if (this.batchFirst) y = transpose(y, 0, 1);
      if (!needWeights) return [y, null];
      let ws = reshape(w, [N, H, L, S]);
      if (average) ws = mean(ws, 1);
      if (!batched) ws = reshape(ws, average ? [L, S] : [H, L, S]);
      return [y, ws];
    });
    return [out as Tensor, weights];
  }
}

libraryForward(MultiheadAttention, NonDynamicallyQuantizableLinear);
