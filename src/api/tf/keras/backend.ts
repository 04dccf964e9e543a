/**
 * `tf.keras.backend`: the few backend functions notebooks call at the top. The engine computes in
 * float32 with channels-last Keras layers, so `floatx()` and `imageDataFormat()` are constants;
 * `epsilon()` is Keras's fuzz factor (1e-7), the value its losses and optimizers use.
 */
import { resetNames } from './naming';

export const backend = {
  /** Keras's clear_session: layer and model names start again from 'dense', 'sequential', …. */
  clearSession: (): void => resetNames(),
  /** The default float type: always 'float32' (the engine's only float dtype). */
  floatx: (): string => 'float32',
  /** Keras's fuzz factor, 1e-7. */
  epsilon: (): number => 1e-7,
  /** Keras's layers here are channels-last, as TensorFlow's default. */
  imageDataFormat: (): string => 'channels_last',
};
