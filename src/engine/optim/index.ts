/** Optimizers: the shared core, PyTorch's and Keras's update rules, and torch.optim's classes. */
export {
  Optimizer,
  ParamState,
  type Hyper,
  type HyperValue,
  type OptimizerStateDict,
  type SavedParamGroup,
  type SavedParamState,
  type ParamGroup,
  type ParamsInput,
  type UpdateContext,
  type UpdateRule,
} from './optimizer';
export { torchSgd } from './rules/torch-sgd';
export { torchAdam, torchAdamW, torchNAdam } from './rules/torch-adam';
export { torchAdagrad, torchRmsprop } from './rules/torch-rmsprop';
export { kerasAdam, kerasNadam, kerasSgd } from './rules/keras';
export { kerasAdagrad, kerasRmsprop } from './rules/keras-adaptive';
export {
  Adagrad,
  Adam,
  AdamW,
  NAdam,
  RMSprop,
  SGD,
  type AdagradOptions,
  type AdamOptions,
  type RMSpropOptions,
  type NAdamOptions,
  type SGDOptions,
} from './torch-optimizers';
