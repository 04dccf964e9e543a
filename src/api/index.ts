/** The cell API's torch- and tf-shaped namespaces (API.md). */
export { torch } from './torch';
export { tf } from './tf';
export { nn, optim, torchvision, torchkeras, torchmetrics } from './torch/index';
