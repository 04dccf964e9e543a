/**
 * `torch.nn`: modules, layers and losses of API.md, and nn.DataParallel (engine/parallel). The
 * module classes are found, not listed: every class engine/nn exports that makes a Module, and the
 * element-wise table's activation modules (ReLU, Sigmoid, Tanh, …).
 */
import * as engineNn from '../../engine/nn';
import { DataParallel } from '../../engine/parallel/data-parallel';
import { functional } from './functional';

type EngineNn = typeof engineNn;
type ModuleClassName = {
  [K in keyof EngineNn]: EngineNn[K] extends abstract new (...args: never[]) => engineNn.Module
    ? K
    : never;
}[keyof EngineNn];

function isModuleClass(value: unknown): boolean {
  return (
    typeof value === 'function' &&
    (value === engineNn.Module || value.prototype instanceof engineNn.Module)
  );
}

const moduleClasses = Object.fromEntries(
  Object.entries(engineNn).filter(([, value]) => isModuleClass(value)),
) as Pick<EngineNn, ModuleClassName>;

export const nn = {
  ...moduleClasses,
  ...engineNn.activationModules,
  Parameter: engineNn.Parameter,
  DataParallel,
  init: engineNn.init,
  functional,
  /** torch.nn.utils: clipGradNorm_, clipGradValue_, parametersToVector, vectorToParameters. */
  utils: {
    clipGradNorm_: engineNn.clipGradNorm_,
    clipGradValue_: engineNn.clipGradValue_,
    parametersToVector: engineNn.parametersToVector,
    vectorToParameters: engineNn.vectorToParameters,
  },
};
