/**
 * Keras's ValueError for bad shapes and graphs: a ShapeError to TypeScript (so existing handlers
 * still catch it) whose name makes Python's `tensorflow` raise ValueError (_errors.py), as Keras.
 */
import { ShapeError } from '../../../../engine';

export class KerasValueError extends ShapeError {
  override name = 'ValueError';
}
