/**
 * Random permutations drawn from the engine's seeded generator (so `manualSeed` reproduces a
 * DataLoader's shuffling), computed on the host: n uniform draws, then their sorted order.
 */
import { defaultGenerator, randomFill, type Generator } from '../random';

export function randperm(n: number, generator: Generator = defaultGenerator): Int32Array {
  const keys = new Float32Array(n);
  if (n > 0) randomFill(keys, generator.take('uniform', n, 0, 1));
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => keys[a] - keys[b] || a - b);
  return Int32Array.from(order);
}
