/** torch.utils.data for the engine: datasets, the DataLoader, seeded permutations, bundled data. */
export { Dataset, TensorDataset, Subset, type TensorSource } from './dataset';
export { DataLoader, type DataLoaderOptions } from './dataloader';
export { randperm } from './randperm';
