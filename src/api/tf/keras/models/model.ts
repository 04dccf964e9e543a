/** Placeholder until the training methods land (replaced below). */
import { Layer } from '../layers/layer';

export abstract class Model extends Layer {
  protected constructor(className: string, kwargs: Record<string, unknown>) {
    super(className, kwargs);
  }
}
