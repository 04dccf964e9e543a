/**
 * The `torch.nn` modules of the element-wise table: every row with a `module` face becomes a class
 * (nn.ReLU, nn.Sigmoid, …) that takes the row's `args` (positionally or as options) and applies
 * the op. No class is written out: a new row with a module name is a new module.
 */
import { describe } from '../../args';
import { opsWithFace, unaryRow, type ModuleName, type UnaryOp } from '../../elementwise-table';
import { unaryWithArgs } from '../../ops/elementwise';
import type { Tensor } from '../../tensor';
import { bind, requireTensor } from '../layer-args';
import { libraryForward, Module } from '../module';

/** A table activation module: its arguments as read-only fields (`relu.inplace`, `softplus.beta`). */
export interface ActivationModule extends Module {
  readonly [arg: string]: unknown;
}

export type ActivationClass = new (...args: unknown[]) => ActivationModule;

function argValue(value: unknown, fallback: number | boolean, what: string): number | boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value === typeof fallback) return value as number | boolean;
  throw new TypeError(`${what} must be a ${typeof fallback}, got ${describe(value)}`);
}

function activationClass(op: Exclude<UnaryOp, 'copy'>, name: string): ActivationClass {
  const defaults = unaryRow(op).args ?? {};
  const params = Object.keys(defaults);
  const values = new WeakMap<Module, Readonly<Record<string, number | boolean>>>();
  const cls = class extends Module {
    constructor(...args: unknown[]) {
      super();
      const a = bind({ name, params }, args);
      const own = Object.fromEntries(
        params.map((p) => [p, argValue(a[p], defaults[p], `${name}: ${p}`)]),
      );
      values.set(this, own);
      for (const p of params) Object.defineProperty(this, p, { value: own[p], enumerable: false });
    }

    override forward(input: Tensor): Tensor {
      return unaryWithArgs(op, requireTensor(input, name), values.get(this) ?? {});
    }

    /** PyTorch's: numbers always (`beta=1, threshold=20`), `inplace=True` only when set. */
    override extraRepr(): string {
      const own = values.get(this) ?? {};
      return params
        .filter((p) => typeof own[p] === 'number' || own[p] === true)
        .map((p) => `${p}=${own[p] === true ? 'True' : String(own[p])}`)
        .join(', ');
    }
  };
  Object.defineProperty(cls, 'name', { value: name });
  libraryForward(cls);
  return cls as unknown as ActivationClass;
}

/** Every table module by its class name. */
export const activationModules = Object.fromEntries(
  opsWithFace('module').unary.map((op) => {
    const name = unaryRow(op).faces?.module as string;
    return [name, activationClass(op as Exclude<UnaryOp, 'copy'>, name)];
  }),
) as Readonly<Record<ModuleName, ActivationClass>>;
