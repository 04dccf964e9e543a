/**
 * The normalisation, pooling and shaping layers of issue 37 (area B) under Keras's names and
 * aliases, spread into `tf.keras.layers` by index.ts.
 */
import { BatchNormalization } from './batch-norm';
import { LayerNormalization } from './layer-norm';
import { AveragePooling1D, AveragePooling2D } from './pooling-average';
import {
  GlobalAveragePooling1D,
  GlobalAveragePooling2D,
  GlobalMaxPooling1D,
  GlobalMaxPooling2D,
} from './pooling-global';
import { Rescaling } from './rescaling';
import { Reshape } from './reshape';
import { Softmax } from './softmax';

export {
  AveragePooling1D,
  AveragePooling2D,
  BatchNormalization,
  GlobalAveragePooling1D,
  GlobalAveragePooling2D,
  GlobalMaxPooling1D,
  GlobalMaxPooling2D,
  LayerNormalization,
  Rescaling,
  Reshape,
  Softmax,
};

export const normPoolLayers = {
  AveragePooling1D,
  AvgPool1D: AveragePooling1D,
  AveragePooling2D,
  AvgPool2D: AveragePooling2D,
  BatchNormalization,
  GlobalAveragePooling1D,
  GlobalAvgPool1D: GlobalAveragePooling1D,
  GlobalAveragePooling2D,
  GlobalAvgPool2D: GlobalAveragePooling2D,
  GlobalMaxPooling1D,
  GlobalMaxPool1D: GlobalMaxPooling1D,
  GlobalMaxPooling2D,
  GlobalMaxPool2D: GlobalMaxPooling2D,
  LayerNormalization,
  Rescaling,
  Reshape,
  Softmax,
};
