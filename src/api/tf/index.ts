/**
 * The Keras and tf.data parts of `tf` (attached to the tensor-level `tf` object in ../tf.ts):
 * `tf.keras`, `tf.data`, `tf.GradientTape`, `tf.function` and `tf.zip`.
 */
import { data } from './data/dataset';
import { GradientTape, tfFunction, zip } from './gradient-tape';
import { keras } from './keras';
import { tfTest } from './test-utils';

export { keras, data, GradientTape, zip };
export const tfExtensions = {
  keras,
  data,
  GradientTape,
  function: tfFunction,
  zip,
  test: tfTest,
};
