/** `tf.keras`: models, layers, optimizers, losses, metrics, callbacks, preprocessing, datasets, backend. */
import { callbacks as baseCallbacks } from './callbacks';
import { ModelCheckpoint } from './model-checkpoint';
import { datasets } from './datasets';
import { layers } from './layers';
import { losses } from './losses';
import { metrics } from './metrics';
import { Model } from './models/model';
import { Sequential } from './models/sequential';
import { optimizers } from './optimizers';
import { preprocessing } from './preprocessing';
// Area G: the notebook boilerplate (backend constants, utils).
import { backend } from './backend';
import { utils } from './utils';
import { activations } from './activations-api';
// Area E: the functional API (keras.Input; Model(inputs, outputs) registers itself).
import { Input } from './layers/input-layer';
import './models/functional';
// Area F: confusion metrics (AUC, Precision, Recall) and more callbacks.
import { confusionMetrics } from './confusion-metrics';
import { LearningRateScheduler, ReduceLROnPlateau } from './lr-callbacks';
import { TensorBoard } from './tensorboard';

export const keras = {
  Sequential,
  Model,
  Input,
  models: { Sequential, Model },
  layers,
  optimizers,
  losses,
  metrics: { ...metrics, ...confusionMetrics },
  callbacks: {
    ...baseCallbacks,
    ModelCheckpoint,
    ReduceLROnPlateau,
    LearningRateScheduler,
    TensorBoard,
  },
  preprocessing,
  datasets,
  backend,
  utils,
  activations,
};
