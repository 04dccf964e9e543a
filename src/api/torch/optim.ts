/** `torch.optim`: SGD, Adam, AdamW, NAdam, RMSprop and Adagrad over the engine's one optimizer core. */
import { Adagrad, Adam, AdamW, NAdam, Optimizer, RMSprop, SGD } from '../../engine/optim';

export const optim = { Optimizer, SGD, Adam, AdamW, NAdam, RMSprop, Adagrad };
