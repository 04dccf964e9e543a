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
      self.dispatch(args),
    );
  }

  /**
   * The single entry of every call: by default the eager `invoke`. Keras layers override it to
   * record a graph node instead when called on symbolic inputs (functional API), so no layer
   * needs code of its own for that.
   */
  protected dispatch(args: unknown[]): Result {
    return this.invoke(...(args as Args));
  }

  /** What calling the object does (Python's `__call__`). */
  protected abstract invoke(...args: Args): Result;
}
