/** Scopes that may overlap in async code: a stack whose entries each body removes by identity. */

/**
 * Runs fn (sync or async) with `entry` on top of `stack`, and removes that entry when fn returns,
 * throws or its promise settles: by identity, so overlapping async bodies cannot pop each other's.
 */
export function withStackEntry<E, T>(stack: E[], entry: E, fn: () => T): T {
  const pop = (): void => {
    const at = stack.lastIndexOf(entry);
    if (at >= 0) stack.splice(at, 1);
  };
  stack.push(entry);
  let result: T;
  try {
    result = fn();
  } catch (error) {
    pop();
    throw error;
  }
  if (result instanceof Promise) return result.finally(pop) as T;
  pop();
  return result;
}
