/**
 * Callable instances: Keras layers, models, losses and metrics are called like functions
 * (`model(x)`, `lossFn(yTrue, yPred)`), as Python objects with `__call__` are. The constructor
 * returns a function object whose prototype is the instance prototype, so `new Dense(4)` is both
 * a `Dense` and callable.
 */

export abstract class Callable<Args extends unknown[], Result> {
  constructor() {
    const target = function (...args: Args): Result {
      return (target as unknown as Callable<Args, Result>).invoke(...args);
    };
    // A function's own `name` and `length` are read-only; Keras objects assign their own `name`.
    delete (target as { name?: string }).name;
    delete (target as { length?: number }).length;
    Object.setPrototypeOf(target, new.target.prototype);
    return target as unknown as Callable<Args, Result>;
  }

  /** What calling the object does (Python's `__call__`). */
  protected abstract invoke(...args: Args): Result;
}
