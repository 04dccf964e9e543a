/** nn.Embedding: rows of a [numEmbeddings, embeddingDim] table picked by integer indices. */
import { noGrad } from '../../autograd';
import type { DeviceSpec } from '../../devices/device-name';
import { cast } from '../../ops/elementwise';
import { fillInto } from '../../ops/inplace';
import { embedding } from '../../ops/nn';
import { narrow } from '../../ops/shape-ops';
import type { Tensor } from '../../tensor';
import { checkInputDevice } from '../device-errors';
import { normal } from '../init';
import {
  bind,
  checkFloatDtype,
  deviceArg,
  intArg,
  positiveInt,
  requireTensor,
  unsupported,
} from '../layer-args';
import { libraryForward, Module } from '../module';
import { Parameter } from '../parameter';

export interface EmbeddingOptions {
  numEmbeddings?: number;
  embeddingDim?: number;
  paddingIdx?: number | null;
  device?: DeviceSpec;
  dtype?: string;
}

export class Embedding extends Module {
  declare weight: Parameter;
  declare readonly numEmbeddings: number;
  declare readonly embeddingDim: number;
  declare readonly paddingIdx: number | null;

  constructor(
    numEmbeddings: number,
    embeddingDim: number,
    paddingIdx?: number | null | EmbeddingOptions,
    ...rest: unknown[]
  );
  constructor(options: EmbeddingOptions);
  constructor(...args: unknown[]) {
    super();
    const a = bind(
      {
        name: 'Embedding',
        params: [
          'numEmbeddings',
          'embeddingDim',
          'paddingIdx',
          'maxNorm',
          'normType',
          'scaleGradByFreq',
          'sparse',
        ],
        keywordOnly: ['device', 'dtype'],
      },
      args,
    );
    unsupported(a, 'Embedding', { maxNorm: null, scaleGradByFreq: false, sparse: false });
    checkFloatDtype(a.dtype, 'Embedding');
    const numEmbeddings = positiveInt(a.numEmbeddings, 'Embedding: numEmbeddings');
    const embeddingDim = positiveInt(a.embeddingDim, 'Embedding: embeddingDim');
    let paddingIdx: number | null = null;
    if (a.paddingIdx !== undefined && a.paddingIdx !== null) {
      const idx = intArg(a.paddingIdx, 'Embedding: paddingIdx');
      if (idx < -numEmbeddings || idx >= numEmbeddings)
        throw new RangeError('Padding_idx must be within num_embeddings');
      paddingIdx = idx < 0 ? idx + numEmbeddings : idx;
    }
    Object.defineProperties(this, {
      numEmbeddings: { value: numEmbeddings, enumerable: false },
      embeddingDim: { value: embeddingDim, enumerable: false },
      paddingIdx: { value: paddingIdx, enumerable: false },
    });
    const table = normal([numEmbeddings, embeddingDim], 0, 1, deviceArg(a.device));
    if (paddingIdx !== null) {
      // PyTorch starts the padding row at zeros.
      noGrad(() => {
        const row = narrow(table, 0, paddingIdx, 1);
        fillInto(row, 0);
        row.dispose();
      });
    }
    this.weight = new Parameter(table);
  }

  override forward(input: Tensor): Tensor {
    const x = requireTensor(input, 'Embedding');
    checkInputDevice('Embedding', x, this.weight);
    // Cell code writes indices as JS numbers, which make float tensors: they are indices all the same.
    const indices = x.dtype === 'int32' ? x : cast(x, 'int32');
    return embedding(indices, this.weight, this.paddingIdx);
  }

  override extraRepr(): string {
    return `${this.numEmbeddings}, ${this.embeddingDim}${this.paddingIdx === null ? '' : `, padding_idx=${this.paddingIdx}`}`;
  }
}

libraryForward(Embedding);
