/**
 * Masked recurrent layers leave nothing on the device per training step: without `returnState`
 * the final states are released when the call returns (releaseUnreturnedStates in recurrent.ts).
 * With a mask each final state is a `where` whose saved tensors lie on no path from the loss, so
 * backward never frees them; before the fix a masked LSTM kept 64 bytes a step until the garbage
 * collector took the state. The loop calls stepBoundary() as fit does, so what it drops is spilled
 * two steps later (parking off: setParkingLimit 0); autograd's saved tensors are never spilled,
 * so a leak of them shows as growth.
 */
import { describe, expect, it } from 'vitest';
import {
  cpu,
  memoryAllocated,
  ops,
  setParkingLimit,
  stepBoundary,
  type Tensor,
} from '../../../../engine';
import { Bidirectional, Embedding, GRU, LSTM } from './index';
import type { Layer } from './layer';
import { kerasMask } from './masking';

const device = cpu();
const ids = ops.fromData(
  [
    [1, 4, 2, 0, 0],
    [3, 5, 6, 2, 1],
    [2, 2, 0, 0, 0],
  ],
  { device, dtype: 'int32' },
);

/** Device bytes after `warm` steps and after 5 more of forward + backward through `run`. */
function growth(run: (x: Tensor) => Tensor, warm = 3): number {
  const step = () => {
    ops.sum(run(ids)).backward();
    stepBoundary();
  };
  setParkingLimit(device, 0);
  try {
    for (let i = 0; i < warm; i++) step();
    const before = memoryAllocated(device);
    for (let i = 0; i < 5; i++) step();
    return memoryAllocated(device) - before;
  } finally {
    setParkingLimit(device, null);
  }
}

describe('masked recurrent layers per training step', () => {
  const embedded = (layer: Layer) => {
    const embedding = new Embedding(7, 4, { maskZero: true });
    return (x: Tensor) => layer(embedding(x));
  };

  it.each([
    ['LSTM', () => new LSTM(3)],
    ['LSTM(returnSequences)', () => new LSTM(3, { returnSequences: true })],
    ['GRU', () => new GRU(3)],
    ['Bidirectional(LSTM)', () => new Bidirectional(new LSTM(3))],
  ])('%s leaves device memory flat', (_name, make) => {
    expect(growth(embedded(make()))).toBe(0);
  });

  it('would grow if the final states were kept (the case the release covers)', () => {
    const lstm = new LSTM(3);
    const embedding = new Embedding(7, 4, { maskZero: true });
    const keepStates = (x: Tensor) => {
      const e = embedding(x);
      return lstm.forwardPass(e, { mask: kerasMask(e) }).output;
    };
    expect(growth(keepStates)).toBeGreaterThan(0);
  });
});
