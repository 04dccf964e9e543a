/** `torch.optim`: SGD, Adam and NAdam over the engine's one optimizer core. */
import { Adam, NAdam, Optimizer, SGD } from '../../engine/optim';

export const optim = { Optimizer, SGD, Adam, NAdam };
