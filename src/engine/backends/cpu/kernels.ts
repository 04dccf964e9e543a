/**
 * The CPU backend's kernel table: one entry per kernel of the contract (backend.ts), each a plain
 * typed-array loop or the WebAssembly GEMM. The context is the backend's buffer pool, the source
 * of scratch memory for kernels composed of others (the convolution).
 */
import type { View } from '../../backend';
import { randomFill } from '../../random';
import type { KernelTable } from '../kernel-table';
import { adamKernel } from './adam';
import { gatherAlongKernel, scanKernel, scatterAddAlongKernel, sortRowsKernel } from './along';
import { normalizeSlicesBackwardKernel, normalizeSlicesKernel } from './norm';
import { arrayOf } from './buffer';
import type { CpuBufferPool } from './buffer-pool';
import { col2imKernel, im2colKernel, maxPool2dBackwardKernel, maxPool2dKernel } from './conv';
import { conv2dColumns, conv2dWeightGradColumns } from './conv-gemm';
import { binaryKernel, binaryScalarKernel, fillKernel, unaryKernel } from './elementwise';
import { fusedElementwiseKernel, fusedReduceKernel } from './fused';
import { gemmKernel } from './gemm';
import { matmulKernel } from './matmul';
import { reduceKernel } from './reduce';
import {
  gatherColumnsKernel,
  indexAddKernel,
  indexSelectKernel,
  scatterColumnsKernel,
  softmaxKernel,
} from './rows';
import { softmaxCrossEntropyKernel } from './softmax-cross-entropy';
import { lstmCellBackwardKernel, lstmCellKernel } from './lstm-cell';
import { gruCellBackwardKernel, gruCellKernel } from './gru-cell';
import { scaleMaskSoftmaxBackwardKernel, scaleMaskSoftmaxKernel } from './scale-mask-softmax';

function sizeOf(view: View): number {
  let n = 1;
  for (const d of view.shape) n *= d;
  return n;
}

export const cpuKernels: KernelTable<CpuBufferPool> = {
  fill: (_, out, value) => fillKernel(out, value),
  assign: (_, x, out) => unaryKernel('copy', x, out),
  random: (_, out, params) => {
    const o = arrayOf(out);
    if (!(o instanceof Float32Array)) throw new TypeError('random: output must be float32');
    randomFill(o.subarray(out.offset, out.offset + sizeOf(out)), params);
  },
  unary: (_, ...args) => unaryKernel(...args),
  binary: (_, ...args) => binaryKernel(...args),
  binaryScalar: (_, ...args) => binaryScalarKernel(...args),
  fusedElementwise: (_, ...args) => fusedElementwiseKernel(...args),
  fusedReduce: (_, ...args) => fusedReduceKernel(...args),
  reduce: (_, ...args) => reduceKernel(...args),
  matmul: (_, ...args) => matmulKernel(...args),
  gemm: (_, ...args) => gemmKernel(...args),
  adam: (_, slots, step) => {
    for (const { param, grad, m, v } of slots) adamKernel(param, grad, m, v, step);
  },
  softmaxCrossEntropy: (_, ...args) => softmaxCrossEntropyKernel(...args),
  softmax: (_, ...args) => softmaxKernel(...args),
  gatherColumns: (_, ...args) => gatherColumnsKernel(...args),
  scatterColumns: (_, ...args) => scatterColumnsKernel(...args),
  indexSelect: (_, ...args) => indexSelectKernel(...args),
  indexAdd: (_, ...args) => indexAddKernel(...args),
  conv2d: conv2dColumns,
  conv2dWeightGrad: conv2dWeightGradColumns,
  im2col: (_, ...args) => im2colKernel(...args),
  col2im: (_, ...args) => col2imKernel(...args),
  maxPool2d: (_, ...args) => maxPool2dKernel(...args),
  maxPool2dBackward: (_, ...args) => maxPool2dBackwardKernel(...args),
  // Area A: indexing, scans and sorts along the last dim (along.ts).
  gatherAlong: (_, ...args) => gatherAlongKernel(...args),
  scatterAddAlong: (_, ...args) => scatterAddAlongKernel(...args),
  scan: (_, ...args) => scanKernel(...args),
  sortRows: (_, ...args) => sortRowsKernel(...args),
  // Area B: normalisation (norm.ts).
  normalizeSlices: (_, ...args) => normalizeSlicesKernel(...args),
  normalizeSlicesBackward: (_, ...args) => normalizeSlicesBackwardKernel(...args),
  // Area D: recurrent layers (lstm-cell.ts, gru-cell.ts).
  lstmCell: (_, ...args) => lstmCellKernel(...args),
  lstmCellBackward: (_, ...args) => lstmCellBackwardKernel(...args),
  gruCell: (_, ...args) => gruCellKernel(...args),
  gruCellBackward: (_, ...args) => gruCellBackwardKernel(...args),
  // Attention weights (scale-mask-softmax.ts).
  scaleMaskSoftmax: (_, ...args) => scaleMaskSoftmaxKernel(...args),
  scaleMaskSoftmaxBackward: (_, ...args) => scaleMaskSoftmaxBackwardKernel(...args),
};
