/** Optimizers: the shared core, PyTorch's and Keras's update rules, and torch.optim's classes. */
export {
  Optimizer,
  ParamState,
  type Hyper,
  type HyperValue,
  type ParamGroup,
  type ParamsInput,
  type UpdateContext,
  type UpdateRule,
} from './optimizer';
export { torchSgd } from './rules/torch-sgd';
export { torchAdam, torchNAdam } from './rules/torch-adam';
export { kerasAdam, kerasNadam, kerasSgd } from './rules/keras';
export {
  Adam,
  NAdam,
  SGD,
  type AdamOptions,
  type NAdamOptions,
  type SGDOptions,
} from './torch-optimizers';
