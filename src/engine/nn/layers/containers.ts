/** nn.Sequential (runs its modules in order) and nn.ModuleList (holds modules for a custom forward). */
import { isOptionsObject } from '../../args';
import type { Tensor } from '../../tensor';
import { libraryForward, Module } from '../module';

function checkModule(value: unknown, where: string): Module {
  if (!(value instanceof Module))
    throw new TypeError(`${where}: ${String(value)} is not a Module subclass`);
  return value;
}

/** Modules named '0', '1', … (or by name), iterable and indexable. */
abstract class ModuleContainer extends Module {
  [index: number]: Module;

  /** Number of modules held. */
  override get length(): number {
    return [...this.namedChildren()].length;
  }

  *[Symbol.iterator](): Iterator<Module> {
    for (const [, m] of this.namedChildren()) yield m;
  }

  /** Appends a module named by its position. */
  append(module: Module): this {
    this.addModule(String(this.length), checkModule(module, `${this.constructor.name}.append`));
    return this;
  }

  extend(modules: Iterable<Module>): this {
    for (const m of modules) this.append(m);
    return this;
  }

  /** The i-th module (negative i counts from the end), as `seq[i]` in Python. */
  get(index: number): Module {
    const list = [...this];
    const i = index < 0 ? index + list.length : index;
    if (!Number.isInteger(i) || i < 0 || i >= list.length) {
      throw new RangeError(
        `index ${index} is out of range for a ${this.constructor.name} of ${list.length} modules`,
      );
    }
    return list[i];
  }
}

export class Sequential extends ModuleContainer {
  /** `new Sequential(a, b, c)`, `new Sequential([a, b])`, or named: `new Sequential({ conv1: a, relu: b })`. */
  constructor(...modules: (Module | Module[] | Record<string, Module>)[]);
  constructor(...args: unknown[]) {
    super();
    const only = args.length === 1 ? args[0] : undefined;
    if (isOptionsObject(only)) {
      for (const [name, m] of Object.entries(only))
        this.addModule(name, checkModule(m, 'Sequential'));
      return;
    }
    const list = Array.isArray(only) ? only : args;
    list.forEach((m, i) => this.addModule(String(i), checkModule(m, 'Sequential')));
  }

  override forward(input: unknown, ...rest: unknown[]): Tensor {
    let x: unknown = input;
    let first = true;
    for (const m of this) {
      x = first ? m(x, ...rest) : m(x);
      first = false;
    }
    return x as Tensor;
  }
}

export class ModuleList extends ModuleContainer {
  constructor(modules?: Iterable<Module>);
  constructor(...args: unknown[]) {
    super();
    const modules = args[0];
    if (modules !== undefined && modules !== null) this.extend(modules as Iterable<Module>);
  }

  insert(index: number, module: Module): void {
    const list = [...this];
    list.splice(
      index < 0 ? index + list.length : index,
      0,
      checkModule(module, 'ModuleList.insert'),
    );
    for (let i = 0; i < list.length; i++) this.addModule(String(i), list[i]);
  }
}

libraryForward(Sequential);
