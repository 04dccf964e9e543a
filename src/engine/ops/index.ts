/** Every op of the engine as plain functions over tensors (the Tensor methods call these). */
export * from './creation';
export * from './elementwise';
export * from './reduce';
export * from './matmul';
export * from './shape-ops';
export * from './nn';
export * from './conv';
export * from './pool';
export { toDevice } from './transfer';
export { copyInto, fillInto } from './inplace';
export { scoped, isTensor, type Operand } from './support';
