/**
 * The WebGPU backend's kernel table: one entry per kernel of the contract (backend.ts), each
 * recording WGSL dispatches (kernels/) on the backend's command queue through its KernelContext.
 */
import type { KernelTable } from '../kernel-table';
import { adam } from './adam';
import { gatherAlong, scan, scatterAddAlong, sortRows } from './along';
import { normalizeSlices, normalizeSlicesBackward } from './norm';
import type { KernelContext } from './context';
import { col2im, im2col } from './conv';
import { conv2dImplicit, conv2dWeightGradImplicit } from './conv-implicit';
import { assign, binary, binaryScalar, fill, unary } from './elementwise';
import { fusedElementwise, fusedReduce } from './fused';
import { gatherColumns, scatterColumns } from './gather-scatter';
import { lstmCell, lstmCellBackward } from './lstm-cell';
import { gruCell, gruCellBackward } from './gru-cell';
import { scaleMaskSoftmax, scaleMaskSoftmaxBackward } from './scale-mask-softmax';
import { indexAdd, indexSelect } from './index-select';
import { matmul } from './matmul';
import { maxPool2d, maxPool2dBackward } from './pool';
import { random } from './random';
import { reduce } from './reduce';
import { softmax } from './softmax';
import { softmaxCrossEntropy } from './softmax-cross-entropy';

export const webgpuKernels: KernelTable<KernelContext> = {
  fill,
  assign,
  random,
  unary,
  binary,
  binaryScalar,
  fusedElementwise,
  fusedReduce,
  reduce: (ctx, op, x, reducedDims, out) => reduce(ctx, op, x, reducedDims, out),
  matmul: (ctx, a, b, out) => matmul(ctx, a, b, out),
  gemm: (ctx, a, b, out, options) =>
    matmul(ctx, a, b, out, {
      bias: options.bias ?? null,
      relu: options.relu,
      nchw: options.nchwPixels !== undefined,
      pixels: options.nchwPixels,
      sumBatches: options.sumBatches,
    }),
  adam,
  softmaxCrossEntropy,
  softmax: (ctx, x, out, log) => softmax(ctx, x, out, log),
  gatherColumns,
  scatterColumns,
  indexSelect,
  indexAdd,
  conv2d: conv2dImplicit,
  conv2dWeightGrad: conv2dWeightGradImplicit,
  im2col,
  col2im,
  maxPool2d,
  maxPool2dBackward,
  // Area A: indexing, scans and sorts along the last dim (along.ts).
  gatherAlong,
  scatterAddAlong,
  scan,
  sortRows,
  // Area B: normalisation (norm.ts).
  normalizeSlices,
  normalizeSlicesBackward,
  // Area D: recurrent layers (lstm-cell.ts, gru-cell.ts).
  lstmCell,
  lstmCellBackward,
  gruCell,
  gruCellBackward,
  // Attention weights (scale-mask-softmax.ts).
  scaleMaskSoftmax,
  scaleMaskSoftmaxBackward,
};
