/** `tf.keras.activations`: Keras's activation functions by name (activation-functions.ts). */
import { activationsNamespace } from './activation-functions';
import { getActivation, softmax } from './activations';

export const activations = activationsNamespace(
  (spec) => getActivation(spec, 'activations.get').fn,
  softmax,
);
