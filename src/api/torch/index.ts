/** The torch-side namespaces of the cell API beyond tensors: nn, optim, utils.data, torchvision, torchmetrics, torchkeras, save/load. */
export { nn } from './nn';
export { functional } from './functional';
export { optim } from './optim';
export { utils } from './utils';
export { torchvision, MNISTDataset } from './torchvision';
export { transforms } from './transforms';
export { torchmetrics } from './torchmetrics';
export { torchkeras } from './torchkeras';
export { callableClass, type CallableClass } from './callable-class';
export { save, load } from '../../engine/serialization';
