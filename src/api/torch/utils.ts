/** `torch.utils.data`: Dataset, TensorDataset, Subset, DataLoader and randomSplit. */
import { DataLoader, Dataset, randperm, Subset, TensorDataset } from '../../engine/data';
import { Generator } from '../../engine';

/** `randomSplit(ds, [800, 200])` or fractions `[0.8, 0.2]`: seeded, like torch.utils.data.random_split. */
function randomSplit<Item>(
  dataset: Dataset<Item>,
  lengths: number[],
  options: { generator?: Generator } = {},
): Subset<Item>[] {
  const n = dataset.length;
  let sizes = lengths;
  if (
    lengths.every((l) => l > 0 && l < 1) &&
    Math.abs(lengths.reduce((a, b) => a + b, 0) - 1) < 1e-9
  ) {
    sizes = lengths.map((f) => Math.floor(f * n));
    for (let i = 0; sizes.reduce((a, b) => a + b, 0) < n; i++) sizes[i % sizes.length]++;
  }
  if (sizes.reduce((a, b) => a + b, 0) !== n) {
    throw new Error('Sum of input lengths does not equal the length of the input dataset!');
  }
  const order = randperm(n, options.generator);
  let at = 0;
  return sizes.map((size) => {
    const part = new Subset(dataset, order.subarray(at, at + size));
    at += size;
    return part;
  });
}

export const utils = {
  data: { Dataset, TensorDataset, Subset, DataLoader, randomSplit },
};
