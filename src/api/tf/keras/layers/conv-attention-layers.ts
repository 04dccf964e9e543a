/**
 * The convolution variants and MultiHeadAttention of issue 37 (area C) under Keras's names and
 * aliases, spread into `tf.keras.layers` by index.ts.
 */
import { Conv1DTranspose, Conv2DTranspose } from './conv-transpose';
import {
  DepthwiseConv1D,
  DepthwiseConv2D,
  SeparableConv1D,
  SeparableConv2D,
} from './depthwise-conv';
import { MultiHeadAttention } from './multi-head-attention';

export {
  Conv1DTranspose,
  Conv2DTranspose,
  DepthwiseConv1D,
  DepthwiseConv2D,
  MultiHeadAttention,
  SeparableConv1D,
  SeparableConv2D,
};

export const convAttentionLayers = {
  Conv1DTranspose,
  Convolution1DTranspose: Conv1DTranspose,
  Conv2DTranspose,
  Convolution2DTranspose: Conv2DTranspose,
  DepthwiseConv1D,
  DepthwiseConv2D,
  MultiHeadAttention,
  SeparableConv1D,
  SeparableConvolution1D: SeparableConv1D,
  SeparableConv2D,
  SeparableConvolution2D: SeparableConv2D,
};
