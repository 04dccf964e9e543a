/**
 * F's pooling forms (avg_pool1d/2d, adaptive_avg_pool1d/2d, adaptive_max_pool1d/2d, max_pool1d/2d):
 * each is its nn module made from the same arguments (PyTorch's F signatures are the modules' plus
 * the input first), so the defaults, checks and errors are the module's.
 */
import { Tensor } from '../../engine';
import * as engineNn from '../../engine/nn';
import { tensorArg } from '../args';

type PoolClass = new (...args: unknown[]) => { forward(x: Tensor): Tensor };

function viaModule(cls: unknown, name: string) {
  return (x: unknown, ...args: unknown[]): Tensor =>
    new (cls as PoolClass)(...args).forward(tensorArg(x, `${name}: input`));
}

export const poolFunctional = {
  avgPool1d: viaModule(engineNn.AvgPool1d, 'avg_pool1d'),
  avgPool2d: viaModule(engineNn.AvgPool2d, 'avg_pool2d'),
  adaptiveAvgPool1d: viaModule(engineNn.AdaptiveAvgPool1d, 'adaptive_avg_pool1d'),
  adaptiveAvgPool2d: viaModule(engineNn.AdaptiveAvgPool2d, 'adaptive_avg_pool2d'),
  adaptiveMaxPool2d: viaModule(engineNn.AdaptiveMaxPool2d, 'adaptive_max_pool2d'),
  adaptiveMaxPool1d: viaModule(engineNn.AdaptiveMaxPool1d, 'adaptive_max_pool1d'),
  maxPool1d: viaModule(engineNn.MaxPool1d, 'max_pool1d'),
  maxPool2d: viaModule(engineNn.MaxPool2d, 'max_pool2d'),
};
