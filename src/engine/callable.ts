/**
 * Objects that are called like functions, as Python objects with `__call__` are (`net(x)`,
 * `lossFn(a, b)`, `model(x)`): a function whose prototype is the class's, so it is also an
 * instance of that class. Used by torch modules and by the Keras wrappers alike.
 */
export function callableInstance<T extends object>(
  prototype: object,
  call: (self: T, args: unknown[]) => unknown,
): T {
  const self = function (...args: unknown[]): unknown {
    return call(self as unknown as T, args);
  };
  // A function's own name/length are read-only; instances may have attributes of those names.
  delete (self as { name?: unknown }).name;
  delete (self as { length?: unknown }).length;
  Object.setPrototypeOf(self, prototype);
  return self as unknown as T;
}
