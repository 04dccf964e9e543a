/**
 * Observers every fit gets besides its own: the host installs them (the notebook kernel's live
 * progress bars and chart), so the engine itself knows nothing of outputs.
 */
import type { TrainingObserver } from './observer';

let factory: (() => readonly TrainingObserver[]) | null = null;

/** Installs (or, with null, removes) the maker of each fit's default observers. */
export function setDefaultObservers(make: (() => readonly TrainingObserver[]) | null): void {
  factory = make;
}

/** Fresh default observers for one fit. */
export function defaultObservers(): readonly TrainingObserver[] {
  return factory ? factory() : [];
}
