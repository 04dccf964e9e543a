/** `torch.nn`: modules, layers and losses of API.md, and nn.DataParallel (engine/parallel). */
import {
  activationModules,
  AdaptiveMaxPool2d,
  Conv1d,
  Conv2d,
  CrossEntropyLoss,
  Dropout,
  Dropout2d,
  Embedding,
  Flatten,
  Linear,
  MaxPool1d,
  MaxPool2d,
  Module,
  ModuleList,
  MSELoss,
  Parameter,
  Sequential,
  Softmax,
  init,
} from '../../engine/nn';
import { DataParallel } from '../../engine/parallel/data-parallel';
import { functional } from './functional';

export const nn = {
  Module,
  Parameter,
  Sequential,
  ModuleList,
  Linear,
  Conv1d,
  Conv2d,
  MaxPool1d,
  MaxPool2d,
  AdaptiveMaxPool2d,
  Dropout,
  Dropout2d,
  Flatten,
  Embedding,
  Softmax,
  CrossEntropyLoss,
  MSELoss,
  DataParallel,
  // The element-wise table's modules: ReLU, Sigmoid, Tanh, …
  ...activationModules,
  init,
  functional,
};
