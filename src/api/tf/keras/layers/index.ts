/** `tf.keras.layers`: the channels-last Keras layers, with Keras's aliases (MaxPool1D, …). */
import { Conv1D, Conv2D } from './conv';
import { Dense } from './dense';
import { Embedding } from './embedding';
import { MaxPooling1D, MaxPooling2D } from './pooling';
import { Activation, Dropout, Flatten } from './shaping';
// Normalisation, pooling and shaping layers (issue 37, area B).
import { normPoolLayers } from './norm-pool-layers';
export * from './norm-pool-layers';
// Recurrent layers and Bidirectional (issue 37, area D).
import { recurrentLayers } from './recurrent-layers';
export * from './recurrent-layers';
// Input and the merging layers (issue 37, area E).
import { functionalLayers } from './functional-layers';
export * from './functional-layers';
// Convolution variants and MultiHeadAttention (issue 37, area C).
import { convAttentionLayers } from './conv-attention-layers';
export * from './conv-attention-layers';

export { Layer, type CallOptions, type ShapeSpec } from './layer';
export {
  Activation,
  Conv1D,
  Conv2D,
  Dense,
  Dropout,
  Embedding,
  Flatten,
  MaxPooling1D,
  MaxPooling2D,
};

export const layers = {
  Activation,
  Conv1D,
  Convolution1D: Conv1D,
  Conv2D,
  Convolution2D: Conv2D,
  Dense,
  Dropout,
  Embedding,
  Flatten,
  MaxPool1D: MaxPooling1D,
  MaxPooling1D,
  MaxPool2D: MaxPooling2D,
  MaxPooling2D,
  ...normPoolLayers,
  ...recurrentLayers,
  ...functionalLayers,
  ...convAttentionLayers,
};
