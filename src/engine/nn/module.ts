/**
 * nn.Module: the base of every layer, loss and model. Instances are callable (`net(x)` runs
 * `forward`), and parameters, buffers and submodules are found in the instance's fields in the
 * order they were assigned, so a subclass registers them as in PyTorch, by `this.fc = …`.
 */
import { callableInstance } from '../callable';
import { noGrad } from '../autograd';
import type { Device } from '../devices/device';
import type { DeviceSpec } from '../devices/device-name';
import { getDevice } from '../devices/registry';
import { copyInto } from '../ops/inplace';
import { clone } from '../ops/shape-ops';
import { runScoped, tensorsIn } from '../memory';
import { Tensor } from '../tensor';
import { moveInPlace, Parameter } from './parameter';
import { describeDevices, isDeviceMismatch } from './device-errors';
import { formatSummary, summarize, type SummaryOptions } from './summary';
import { writeOutput } from '../training/output';
import {
  loadState,
  type IncompatibleKeys,
  type LoadStateDictOptions,
  type StateDict,
} from './state-dict';

/** Hidden per-instance bookkeeping (kept out of the fields, where users' attributes live). */
interface Internals {
  /** Names registered explicitly (addModule, registerBuffer, …), in registration order. */
  order: string[];
  buffers: Set<string>;
  nonPersistent: Set<string>;
  forwardHooks: Map<number, ForwardHook>;
}

export type ForwardHook = (module: Module, inputs: unknown[], output: unknown) => unknown;

const internals = new WeakMap<Module, Internals>();
let nextHookId = 0;

function state(m: Module): Internals {
  const s = internals.get(m);
  if (!s) throw new Error('Module was not initialised: call super() first in the constructor');
  return s;
}

/**
 * The forward methods of this library's own layers and containers. Such a forward keeps no tensor
 * it makes except what it returns, so when a module and everything below it run only such
 * forwards (and no hook of a user's sees the tensors passed between them), no program can hold
 * the intermediates, and they are released when the call returns (memory.ts, layer 2) instead of
 * waiting for a step sweep to move them to the host. The autograd graph keeps its own handles on
 * what backward needs. A subclass that overrides forward, or an instance given its own, is the
 * user's code and is not sealed.
 */
const libraryForwards = new WeakSet<object>();

/** Marks layer classes whose forward is ours (called next to each layer's definition). */
export function libraryForward(...classes: { prototype: { forward: unknown } }[]): void {
  for (const c of classes) libraryForwards.add(c.prototype.forward as object);
}

/** True when this module and all below it run only library forwards, with no hooks. */
function sealed(m: Module): boolean {
  if (!libraryForwards.has(m.forward) || state(m).forwardHooks.size > 0) return false;
  return m.children().every(sealed);
}

const isTensor = (v: unknown): v is Tensor => v instanceof Tensor;

/** Runs forward with hooks; a sealed module releases its intermediates when it returns. */
function callModule(self: Module, inputs: unknown[]): unknown {
  if (!sealed(self)) return runForward(self, inputs);
  return runScoped(
    () => runForward(self, inputs),
    (output) => tensorsIn(output, isTensor),
    'tidy',
  );
}

/** Runs forward with hooks and, on a device mismatch, says which tensors are where. */
function runForward(self: Module, inputs: unknown[]): unknown {
  let output: unknown;
  try {
    output = self.forward(...inputs);
  } catch (error) {
    if (isDeviceMismatch(error)) describeDevices(error, self, inputs);
    throw error;
  }
  for (const hook of state(self).forwardHooks.values()) {
    const replaced = hook(self, inputs, output);
    if (replaced !== undefined) output = replaced;
  }
  return output;
}

/**
 * Modules are called like functions: `net(x)` is `net.forward(x)` plus hooks. The constructor
 * returns a function object, and merging this call signature into the class is how TypeScript
 * learns that instances are callable.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface Module {
  (...inputs: unknown[]): Tensor;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Module {
  /** Set by train() / eval(); layers such as Dropout read it. */
  declare training: boolean;

  constructor() {
    const self = callableInstance<Module>(new.target.prototype, (module, inputs) =>
      callModule(module, inputs),
    );
    Object.defineProperty(self, 'training', {
      value: true,
      writable: true,
      enumerable: false,
      configurable: true,
    });
    internals.set(self, {
      order: [],
      buffers: new Set(),
      nonPersistent: new Set(),
      forwardHooks: new Map(),
    });
    return self;
  }

  /** The computation; subclasses define it. */
  forward(..._inputs: unknown[]): unknown {
    throw new Error(`Module [${this.constructor.name}] is missing the required "forward" function`);
  }

  // -------------------------------------------------------------------------------------------
  // Registration.

  /** Own members in registration order: explicit registrations first, then fields. */
  private ownNames(): string[] {
    const names = [...state(this).order];
    for (const key of Object.keys(this)) if (!names.includes(key)) names.push(key);
    return names;
  }

  private member(name: string): unknown {
    return (this as unknown as Record<string, unknown>)[name];
  }

  private checkName(name: string, what: string): void {
    if (typeof name !== 'string' || name === '' || name.includes('.')) {
      throw new TypeError(
        `${what} name should be a non-empty string without ".", got ${JSON.stringify(name)}`,
      );
    }
    if (name in this && !Object.prototype.hasOwnProperty.call(this, name)) {
      throw new Error(`attribute '${name}' already exists`);
    }
  }

  private register(name: string, value: unknown): void {
    Object.defineProperty(this, name, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    const order = state(this).order;
    if (!order.includes(name)) order.push(name);
  }

  addModule(name: string, module: Module | null): void {
    this.checkName(name, 'module');
    if (module !== null && !(module instanceof Module))
      throw new TypeError(`${String(module)} is not a Module subclass`);
    this.register(name, module);
  }

  registerModule(name: string, module: Module | null): void {
    this.addModule(name, module);
  }

  registerParameter(name: string, param: Parameter | null): void {
    this.checkName(name, 'parameter');
    if (param !== null && !(param instanceof Parameter)) {
      throw new TypeError(
        `cannot assign a plain Tensor as parameter '${name}' (wrap it in nn.Parameter)`,
      );
    }
    this.register(name, param);
  }

  /** A tensor that moves with the module and is saved in its state dict, but is not trained. */
  registerBuffer(
    name: string,
    tensor: Tensor | null,
    options: { persistent?: boolean } = {},
  ): void {
    this.checkName(name, 'buffer');
    const s = state(this);
    let value = tensor;
    if (value !== null) {
      if (!(value instanceof Tensor))
        throw new TypeError(`buffer '${name}' must be a Tensor or null`);
      if (!value.isContiguous() || value.offset !== 0) value = clone(value.detach());
      value.keep();
    }
    this.register(name, value);
    s.buffers.add(name);
    if (options.persistent === false) s.nonPersistent.add(name);
  }

  // -------------------------------------------------------------------------------------------
  // Traversal.

  *namedChildren(): Generator<[string, Module]> {
    for (const name of this.ownNames()) {
      const value = this.member(name);
      if (value instanceof Module) yield [name, value];
    }
  }

  children(): Module[] {
    return [...this.namedChildren()].map(([, m]) => m);
  }

  /** This module and every submodule, depth first, each once, with dotted names. */
  namedModules(prefix = '', seen = new Set<Module>()): [string, Module][] {
    if (seen.has(this)) return [];
    seen.add(this);
    const out: [string, Module][] = [[prefix, this]];
    for (const [name, child] of this.namedChildren()) {
      out.push(...child.namedModules(prefix ? `${prefix}.${name}` : name, seen));
    }
    return out;
  }

  modules(): Module[] {
    return this.namedModules().map(([, m]) => m);
  }

  /** Parameters registered directly on this module. */
  ownParameters(): [string, Parameter][] {
    const out: [string, Parameter][] = [];
    for (const name of this.ownNames()) {
      const value = this.member(name);
      if (value instanceof Parameter) out.push([name, value]);
    }
    return out;
  }

  private ownBuffers(): [string, Tensor][] {
    const out: [string, Tensor][] = [];
    for (const name of state(this).buffers) {
      const value = this.member(name);
      if (value instanceof Tensor) out.push([name, value]);
    }
    return out;
  }

  /** `[name, parameter]` pairs with PyTorch's dotted names (`conv1.weight`, `0.bias`). */
  namedParameters(options: { prefix?: string; recurse?: boolean } = {}): [string, Parameter][] {
    const prefix = options.prefix ?? '';
    const modules: [string, Module][] =
      options.recurse === false ? [[prefix, this]] : this.namedModules(prefix);
    const seen = new Set<Parameter>();
    const out: [string, Parameter][] = [];
    for (const [path, m] of modules) {
      for (const [name, p] of m.ownParameters()) {
        if (seen.has(p)) continue;
        seen.add(p);
        out.push([path ? `${path}.${name}` : name, p]);
      }
    }
    return out;
  }

  /** The parameters, in registration order (an array: `net.parameters()[0]` is PyTorch's `next(...)`). */
  parameters(options: { recurse?: boolean } = {}): Parameter[] {
    return this.namedParameters(options).map(([, p]) => p);
  }

  namedBuffers(options: { prefix?: string } = {}): [string, Tensor][] {
    const out: [string, Tensor][] = [];
    for (const [path, m] of this.namedModules(options.prefix ?? '')) {
      for (const [name, b] of m.ownBuffers()) out.push([path ? `${path}.${name}` : name, b]);
    }
    return out;
  }

  buffers(): Tensor[] {
    return this.namedBuffers().map(([, b]) => b);
  }

  // -------------------------------------------------------------------------------------------
  // Devices and modes.

  /** Moves every parameter and buffer to `device` in place and returns this module. */
  to(device: DeviceSpec | Device | { device?: DeviceSpec }): this {
    const spec =
      typeof device === 'object' && device !== null && 'device' in device && !('name' in device)
        ? device.device
        : device;
    if (spec === undefined) return this;
    const target = getDevice(spec as DeviceSpec | Device);
    for (const t of [...this.parameters(), ...this.buffers()]) moveInPlace(t, target);
    return this;
  }

  cuda(device: number | DeviceSpec = 'gpu:0'): this {
    return this.to(typeof device === 'number' ? `gpu:${device}` : device);
  }

  cpu(): this {
    return this.to('cpu');
  }

  /** Training mode (Dropout active) for this module and its submodules. */
  train(mode = true): this {
    for (const m of this.modules()) m.training = mode;
    return this;
  }

  /** Evaluation mode: `train(false)`. */
  eval(): this {
    return this.train(false);
  }

  requiresGrad_(requiresGrad = true): this {
    for (const p of this.parameters()) p.requiresGrad = requiresGrad;
    return this;
  }

  zeroGrad(options: { setToNone?: boolean } = {}): void {
    for (const p of this.parameters()) {
      const grad = p.gradInternal;
      if (grad === null) continue;
      if (options.setToNone ?? true) p.dropGrad();
      else noGrad(() => copyInto(grad, 0));
    }
  }

  /** Calls fn on every submodule and then on this one (PyTorch's `apply`). */
  apply(fn: (module: Module) => void): this {
    for (const child of this.children()) child.apply(fn);
    fn(this);
    return this;
  }

  /** Runs after every forward call; returning a value replaces the output. */
  registerForwardHook(hook: ForwardHook): { remove(): void } {
    const hooks = state(this).forwardHooks;
    const id = nextHookId++;
    hooks.set(id, hook);
    return { remove: () => void hooks.delete(id) };
  }

  // -------------------------------------------------------------------------------------------
  // State dicts.

  /** Parameters and persistent buffers by dotted name (tensors sharing the module's memory). */
  stateDict(options: { prefix?: string } = {}): StateDict {
    const out: StateDict = {};
    for (const [path, m] of this.namedModules(options.prefix ?? '')) {
      const s = state(m);
      const entries: [string, Tensor][] = [
        ...m.ownParameters(),
        ...m.ownBuffers().filter(([name]) => !s.nonPersistent.has(name)),
      ];
      for (const [name, t] of entries) out[path ? `${path}.${name}` : name] = t.detach();
    }
    return out;
  }

  /** Copies a state dict in; with `strict` (the default) every key must match, as in PyTorch. */
  loadStateDict(
    stateDict: StateDict | Map<string, Tensor>,
    options: LoadStateDictOptions | boolean = {},
  ): IncompatibleKeys {
    const strict = typeof options === 'boolean' ? options : (options.strict ?? true);
    const targets = new Map<string, Tensor>();
    for (const [path, m] of this.namedModules()) {
      const s = state(m);
      for (const [name, t] of [
        ...m.ownParameters(),
        ...m.ownBuffers().filter(([n]) => !s.nonPersistent.has(n)),
      ]) {
        targets.set(path ? `${path}.${name}` : name, t);
      }
    }
    return loadState(this.constructor.name, targets, stateDict, strict);
  }

  // -------------------------------------------------------------------------------------------
  // Printing.

  /** Prints torchsummary's table for one input shape: `net.summary({ inputShape: [1, 28, 28] })`. */
  summary(options: SummaryOptions): void {
    writeOutput(formatSummary(summarize(this, options)));
  }

  /** The part inside the parentheses of this module's repr (layers override it). */
  extraRepr(): string {
    return '';
  }

  /** PyTorch's repr: `Sequential(\n  (0): Linear(in_features=2, …)\n)`. */
  toString(): string {
    const children = [...this.namedChildren()];
    const extra = this.extraRepr();
    const name = this.constructor.name;
    if (children.length === 0) return `${name}(${extra})`;
    const lines = extra ? extra.split('\n') : [];
    for (const [key, child] of children) {
      const text = child.toString().split('\n').join('\n  ');
      lines.push(`(${key}): ${text}`);
    }
    return `${name}(\n  ${lines.join('\n  ')}\n)`;
  }
}
