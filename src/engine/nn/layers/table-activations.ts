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

type ArgValue = number | boolean | string;

function argValue(value: unknown, fallback: ArgValue, what: string): ArgValue {
  if (value === undefined || value === null) return fallback;
  if (typeof value === typeof fallback) return value as ArgValue;
  throw new TypeError(`${what} must be a ${typeof fallback}, got ${describe(value)}`);
}

function activationClass(op: Exclude<UnaryOp, 'copy'>, name: string): ActivationClass {
  const defaults = unaryRow(op).args ?? {};
  const params = Object.keys(defaults);
  const floats = new Set(unaryRow(op).floatArgs ?? []);
  const values = new WeakMap<Module, Readonly<Record<string, ArgValue>>>();
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

    /**
     * PyTorch's: numbers always (`beta=1, threshold=20`; `alpha=1.0` for a float argument),
     * strings quoted (`approximate='none'`), `inplace=True` only when set; names in snake_case.
     */
    override extraRepr(): string {
      const own = values.get(this) ?? {};
      return params
        .filter((p) => own[p] !== false)
        .map((p) => `${snake(p)}=${reprValue(own[p], floats.has(p))}`)
        .join(', ');
    }
  };
  Object.defineProperty(cls, 'name', { value: name });
  libraryForward(cls);
  return cls as unknown as ActivationClass;
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A value as Python's repr shows it (a float argument's whole number as `1.0`). */
function reprValue(value: ArgValue, float: boolean): string {
  if (value === true) return 'True';
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'number' && float && Number.isInteger(value)) return value.toFixed(1);
  return String(value);
}

/** Every table module by its class name. */
export const activationModules = Object.fromEntries(
  opsWithFace('module').unary.map((op) => {
    const name = unaryRow(op).faces?.module as string;
    return [name, activationClass(op as Exclude<UnaryOp, 'copy'>, name)];
  }),
) as Readonly<Record<ModuleName, ActivationClass>>;
