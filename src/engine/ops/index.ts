/** Every op of the engine as plain functions over tensors (the Tensor methods call these). */
// Tensors made by the ops below get their methods from tensor.ts (see ops/support.ts).
import '../tensor';
export * from './creation';
export * from './elementwise';
export * from './reduce';
export * from './matmul';
export * from './shape-ops';
export { expand, broadcastTo } from './broadcast';
export * from './nn';
export * from './conv';
export * from './pool';
export * from './pool-avg';
export * from './resample';
export * from './conv-transpose';
export { unfoldWindows, foldWindows } from './unfold-windows';
// Compositions (area H): eye/tril/triu/where/diag/trace, splits and repeats, statistics, einsum.
export * from './masks';
export * from './split';
export { variance, std, logsumexp, norm as vectorNorm, isclose } from './statistics';
export * from './einsum';
// Indexing, scans and sorts along a dim (area A).
export {
  gather,
  scatter,
  scatterAdd,
  maskedFill,
  indexAdd,
  takeAlongDim,
  flip,
  roll,
} from './index-ops';
export * from './scan';
export * from './sort';
// Losses with PyTorch's options, and prelu, oneHot, normalize, cosineSimilarity (area E).
export * from './losses';
export * from './nn-extras';
export { toDevice } from './transfer';
export { copyInto, fillInto } from './inplace';
export { scoped, isTensor, type Operand } from './support';
