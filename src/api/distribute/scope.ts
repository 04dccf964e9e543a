/**
 * Which tf.distribute strategy's scope is open, and what a strategy offers Keras: models made in a
 * scope remember the strategy (TensorFlow's `model.distribute_strategy`) and their `fit` hands
 * each step to it. Kept apart from the strategy classes so Keras depends on this small contract.
 */
import type { Tensor } from '../../engine';
import type { StepResult } from '../../engine/training';
import { withStackEntry } from '../../engine/scoped';

/** What the strategy needs from a Keras model to run one step on every replica. */
export interface KerasReplicaHooks {
  /** Forward and loss on one batch (or one replica's slice of it). */
  forward(batch: unknown, training: boolean): StepResult;
  /** Every weight of the model (they are mirrored on every replica). */
  weights(): Tensor[];
  trainableVariables(): Tensor[];
  applyGradients(pairs: [Tensor | null, Tensor][]): void;
}

export interface ReplicatedSteps {
  trainStep(batch: unknown): StepResult;
  evalStep(batch: unknown): StepResult;
}

export interface DistributeStrategy {
  readonly numReplicasInSync: number;
  /** The replicated train and eval steps of a Keras model. */
  kerasSteps(model: object, hooks: KerasReplicaHooks): ReplicatedSteps;
}

const open: DistributeStrategy[] = [];

/** The strategy whose scope is open (the innermost), or null. */
export function currentStrategy(): DistributeStrategy | null {
  return open[open.length - 1] ?? null;
}

/** Runs fn (sync or async) with `strategy`'s scope open; overlapping scopes pop their own entry. */
export function withStrategy<T>(strategy: DistributeStrategy, fn: () => T): T {
  return withStackEntry(open, strategy, fn);
}
