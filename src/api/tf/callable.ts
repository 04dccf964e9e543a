/**
 * Callable instances: Keras layers, models, losses and metrics are called like functions
 * (`model(x)`, `lossFn(yTrue, yPred)`), as Python objects with `__call__` are. The constructor
 * returns a function object whose prototype is the instance prototype, so `new Dense(4)` is both
 * a `Dense` and callable.
 */

import { callableInstance } from '../../engine/callable';

export abstract class Callable<Args extends unknown[], Result> {
  constructor() {
    return callableInstance<Callable<Args, Result>>(new.target.prototype, (self, args) =>
      self.invoke(...(args as Args)),
    );
  }

  /** What calling the object does (Python's `__call__`). */
  protected abstract invoke(...args: Args): Result;
}
