/** torch.nn for the engine: Module, Parameter, containers, layers, losses, init and summaries. */
import { activationModules } from './layers/table-activations';

export { Module, type ForwardHook } from './module';
export { Parameter, adoptStorage, moveInPlace } from './parameter';
export { IncompatibleKeys, type LoadStateDictOptions, type StateDict } from './state-dict';
export { Sequential, ModuleList } from './layers/containers';
export { Linear, type LinearOptions } from './layers/linear';
export { Conv1d, Conv2d, type ConvOptions } from './layers/conv';
export { MaxPool1d, MaxPool2d, AdaptiveMaxPool2d, type MaxPoolOptions } from './layers/pool';
export { Softmax, Flatten, Dropout, Dropout2d } from './layers/activation';
export {
  activationModules,
  type ActivationClass,
  type ActivationModule,
} from './layers/table-activations';
/** The table's modules the engine's own code names. */
export const { ReLU } = activationModules;
export { Embedding, type EmbeddingOptions } from './layers/embedding';
export { MSELoss } from './layers/loss';
// Losses with PyTorch's options (area E).
export {
  NLLLoss,
  CrossEntropyLoss,
  BCELoss,
  BCEWithLogitsLoss,
  L1Loss,
  SmoothL1Loss,
  HuberLoss,
  KLDivLoss,
  type CrossEntropyLossOptions,
} from './layers/losses';
export { PReLU, CosineSimilarity, Unflatten } from './layers/nn-extras';
export {
  summarize,
  formatSummary,
  type ModelSummary,
  type SummaryOptions,
  type SummaryRow,
} from './summary';
export { checkInputDevice } from './device-errors';
export * as init from './init';
// Recurrent layers (area D).
export { RNN, LSTM, GRU, type RNNOptions } from './layers/recurrent';
// Normalisation layers (area B).
export {
  LayerNorm,
  BatchNorm1d,
  BatchNorm2d,
  BatchNorm3d,
  GroupNorm,
  InstanceNorm1d,
  InstanceNorm2d,
  InstanceNorm3d,
} from './layers/norm';
// Average pooling (area C).
export {
  AvgPool1d,
  AvgPool2d,
  AdaptiveAvgPool1d,
  AdaptiveAvgPool2d,
  type AvgPoolModuleOptions,
} from './layers/pool-avg';
// Resampling and padding (area C).
export {
  Upsample,
  UpsamplingNearest2d,
  UpsamplingBilinear2d,
  ZeroPad2d,
  ConstantPad1d,
  ConstantPad2d,
  ReflectionPad1d,
  ReflectionPad2d,
  ReplicationPad1d,
  ReplicationPad2d,
  type UpsampleOptions,
} from './layers/resample';
// Transposed convolutions (area C).
export {
  ConvTranspose1d,
  ConvTranspose2d,
  type ConvTransposeOptions,
} from './layers/conv-transpose';
export { AdaptiveMaxPool1d } from './layers/pool';
export { Unfold, Fold } from './layers/unfold';
// torch.nn.utils: gradient clipping, parameters as one vector (area F).
export {
  clipGradNorm_,
  clipGradValue_,
  parametersToVector,
  vectorToParameters,
  type GradParameters,
} from './grad-utils';
// Attention (area D).
export {
  MultiheadAttention,
  NonDynamicallyQuantizableLinear,
  type MultiheadAttentionOptions,
} from './layers/attention';
// Transformer encoder (area D).
export {
  TransformerEncoderLayer,
  TransformerEncoder,
  type TransformerEncoderLayerOptions,
  type TransformerEncoderOptions,
} from './layers/transformer';
