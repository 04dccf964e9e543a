/**
 * nn.TransformerEncoderLayer and nn.TransformerEncoder with PyTorch's arguments, submodule names
 * (self_attn, linear1, dropout, linear2, norm1, norm2, dropout1, dropout2; layers, norm), post- or
 * pre-norm (norm_first), relu or gelu, masks, and reprs.
 */
import { asNumber } from '../../args';
import type { DeviceSpec } from '../../devices/device-name';
import { add, gelu, relu } from '../../ops/elementwise';
import type { Tensor } from '../../tensor';
import { bind, boolArg, checkFloatDtype, positiveInt, requireTensor } from '../layer-args';
import { libraryForward, Module } from '../module';
import { Dropout } from './activation';
import { ModuleList } from './containers';
import { Linear } from './linear';
import { MultiheadAttention } from './attention';
import { LayerNorm } from './norm';

type Activation = 'relu' | 'gelu';

interface LayerConfig {
  dModel: number;
  nhead: number;
  dimFeedforward: number;
  dropout: number;
  activation: Activation;
  layerNormEps: number;
  batchFirst: boolean;
  normFirst: boolean;
  device?: DeviceSpec;
}

export interface TransformerEncoderLayerOptions extends Partial<LayerConfig> {
  dtype?: string;
}

/** One encoder block: self-attention and a feed-forward network, each with a residual and a norm. */
export class TransformerEncoderLayer extends Module {
  declare self_attn: MultiheadAttention;
  declare linear1: Linear;
  declare dropout: Dropout;
  declare linear2: Linear;
  declare norm1: LayerNorm;
  declare norm2: LayerNorm;
  declare dropout1: Dropout;
  declare dropout2: Dropout;
  declare readonly config: LayerConfig;

  constructor(dModel: number, nhead: number, ...rest: unknown[]);
  constructor(options: TransformerEncoderLayerOptions);
  constructor(...args: unknown[]) {
    super();
    const name = 'TransformerEncoderLayer';
    const a = bind(
      {
        name,
        params: [
          'dModel',
          'nhead',
          'dimFeedforward',
          'dropout',
          'activation',
          'layerNormEps',
          'batchFirst',
          'normFirst',
        ],
        keywordOnly: ['device', 'dtype'],
      },
      args,
    );
    checkFloatDtype(a.dtype, name);
    const activation = a.activation ?? 'relu';
    if (activation !== 'relu' && activation !== 'gelu') {
      throw new Error(
        `${name}: activation should be relu/gelu, not ${String(activation)} (callables are not supported yet)`,
      );
    }
    const config: LayerConfig = {
      dModel: positiveInt(a.dModel, `${name}: dModel`),
      nhead: positiveInt(a.nhead, `${name}: nhead`),
      dimFeedforward: positiveInt(a.dimFeedforward, `${name}: dimFeedforward`, 2048),
      dropout: a.dropout === undefined || a.dropout === null ? 0.1 : asNumber(a.dropout, 'dropout'),
      activation,
      layerNormEps:
        a.layerNormEps === undefined || a.layerNormEps === null
          ? 1e-5
          : asNumber(a.layerNormEps, 'layer_norm_eps'),
      batchFirst: boolArg(a.batchFirst, `${name}: batchFirst`, false),
      normFirst: boolArg(a.normFirst, `${name}: normFirst`, false),
      device: a.device === undefined || a.device === null ? undefined : (a.device as DeviceSpec),
    };
    Object.defineProperty(this, 'config', { value: config, enumerable: false });
    const { dModel, dimFeedforward: ff, dropout: p, device } = config;
    const dev = device === undefined ? {} : { device };
    this.self_attn = new MultiheadAttention(dModel, config.nhead, {
      dropout: p,
      batchFirst: config.batchFirst,
      ...dev,
    });
    this.linear1 = new Linear(dModel, ff, dev);
    this.dropout = new Dropout(p);
    this.linear2 = new Linear(ff, dModel, dev);
    this.norm1 = new LayerNorm(dModel, config.layerNormEps, dev);
    this.norm2 = new LayerNorm(dModel, config.layerNormEps, dev);
    this.dropout1 = new Dropout(p);
    this.dropout2 = new Dropout(p);
  }

  override forward(...args: unknown[]): Tensor {
    const a = bind(
      {
        name: 'TransformerEncoderLayer.forward',
        params: ['src', 'srcMask', 'srcKeyPaddingMask', 'isCausal'],
      },
      args,
    );
    const src = requireTensor(a.src, 'TransformerEncoderLayer');
    const mask = a.srcMask ?? null;
    const padding = a.srcKeyPaddingMask ?? null;
    const attend = (x: Tensor) =>
      this.dropout1(
        this.self_attn.forward(x, x, x, {
          attnMask: mask,
          keyPaddingMask: padding,
          needWeights: false,
        })[0],
      );
    const act = this.config.activation === 'gelu' ? gelu : relu;
    const feedForward = (x: Tensor) =>
      this.dropout2(this.linear2(this.dropout(act(this.linear1(x)))));
    if (this.config.normFirst) {
      const x = add(src, attend(this.norm1(src)));
      return add(x, feedForward(this.norm2(x)));
    }
    const x = this.norm1(add(src, attend(src)));
    return this.norm2(add(x, feedForward(x)));
  }

  /** A copy with the same configuration, weights and mode (PyTorch's deepcopy of a layer). */
  copy(): TransformerEncoderLayer {
    const c = this.config;
    const layer = new TransformerEncoderLayer({
      dModel: c.dModel,
      nhead: c.nhead,
      dimFeedforward: c.dimFeedforward,
      dropout: c.dropout,
      activation: c.activation,
      layerNormEps: c.layerNormEps,
      batchFirst: c.batchFirst,
      normFirst: c.normFirst,
      device: this.linear1.weight.deviceObject.name as DeviceSpec,
    });
    layer.loadStateDict(this.stateDict());
    layer.train(this.training);
    return layer;
  }
}

export interface TransformerEncoderOptions {
  encoderLayer?: TransformerEncoderLayer;
  numLayers?: number;
  norm?: Module | null;
}

/** A stack of numLayers copies of an encoder layer, then an optional norm. */
export class TransformerEncoder extends Module {
  declare layers: ModuleList;
  declare norm: Module | null;
  declare readonly numLayers: number;

  constructor(encoderLayer: TransformerEncoderLayer, numLayers: number, ...rest: unknown[]);
  constructor(options: TransformerEncoderOptions);
  constructor(...args: unknown[]) {
    super();
    const name = 'TransformerEncoder';
    const a = bind(
      {
        name,
        params: ['encoderLayer', 'numLayers', 'norm', 'enableNestedTensor', 'maskCheck'],
      },
      args,
    );
    if (!(a.encoderLayer instanceof TransformerEncoderLayer))
      throw new TypeError(`${name}: encoder_layer must be a TransformerEncoderLayer`);
    const layer = a.encoderLayer;
    const n = positiveInt(a.numLayers, `${name}: numLayers`);
    if (a.norm !== undefined && a.norm !== null && !(a.norm instanceof Module))
      throw new TypeError(`${name}: norm must be a Module or None`);
    Object.defineProperty(this, 'numLayers', { value: n, enumerable: false });
    // PyTorch deep-copies the layer: every layer starts from its weights, none shares them.
    this.layers = new ModuleList(Array.from({ length: n }, () => layer.copy()));
    this.norm = (a.norm as Module | undefined) ?? null;
  }

  override forward(...args: unknown[]): Tensor {
    const a = bind(
      {
        name: 'TransformerEncoder.forward',
        params: ['src', 'mask', 'srcKeyPaddingMask', 'isCausal'],
      },
      args,
    );
    let x = requireTensor(a.src, 'TransformerEncoder');
    for (const layer of this.layers) {
      x = (layer as TransformerEncoderLayer).forward(x, {
        srcMask: a.mask ?? null,
        srcKeyPaddingMask: a.srcKeyPaddingMask ?? null,
      });
    }
    return this.norm ? this.norm(x) : x;
  }
}

libraryForward(TransformerEncoderLayer, TransformerEncoder);
