/**
 * The one optimizer core behind torch.optim and tf.keras.optimizers: parameter groups with their
 * hyperparameters, per-parameter state kept as persistent device tensors, and an update rule
 * (PyTorch's or Keras's formulas) applied without reading anything back. `step()` ends a training
 * step for the engine's memory sweep.
 */
import { noGrad } from '../autograd';
import { stepBoundary } from '../memory';
import { copyInto, fillInto } from '../ops/inplace';
import { scopedAll } from '../ops/support';
import { clone } from '../ops/shape-ops';
import { toDevice } from '../ops/transfer';
import { formatShape, shapesEqual } from '../shape';
import { Tensor } from '../tensor';

/** A hyperparameter value: lr, betas, flags, … (read by the rule at every step). */
export type HyperValue = number | boolean | string | readonly number[] | null;
export type Hyper = Record<string, HyperValue>;

/** A parameter group: its parameters and its hyperparameters (as PyTorch's param_groups). */
export interface ParamGroup {
  params: Tensor[];
  [hyper: string]: HyperValue | Tensor[];
}

/** What a user may pass: tensors, or groups `{ params, lr, … }` overriding the defaults. */
export type ParamsInput =
  Iterable<Tensor> | readonly ({ params: Iterable<Tensor> } & Record<string, unknown>)[];

/** Per-parameter optimizer state: its step count, device tensors and host scalars. */
export class ParamState {
  step = 0;
  readonly tensors = new Map<string, Tensor>();
  readonly scalars = new Map<string, number>();

  /** A state tensor, or undefined before the rule first sets it. */
  get(name: string): Tensor | undefined {
    return this.tensors.get(name);
  }

  /** Replaces a state tensor: the new one is kept across steps, the old one released at once. */
  set(name: string, value: Tensor): void {
    const previous = this.tensors.get(name);
    value.keep();
    this.tensors.set(name, value);
    if (previous && previous !== value) previous.dispose();
  }

  scalar(name: string, fallback: number): number {
    return this.scalars.get(name) ?? fallback;
  }
}

/** One parameter's saved state: step count, state tensors (copies) and host scalars. */
export interface SavedParamState {
  step: number;
  tensors: Record<string, Tensor>;
  scalars: Record<string, number>;
}

/** A saved group: its hyperparameters and its parameters as indices. */
export type SavedParamGroup = Record<string, HyperValue | number[]> & { params: number[] };

/** What `stateDict()` returns and `loadStateDict()` takes (PyTorch's layout, camelCase names). */
export interface OptimizerStateDict {
  state: Record<number, SavedParamState>;
  paramGroups: SavedParamGroup[];
}

/** One update: the parameter, its gradient, its state and its group's hyperparameters. */
export interface UpdateContext {
  readonly param: Tensor;
  readonly grad: Tensor;
  readonly state: ParamState;
  readonly hyper: Hyper;
}

/**
 * An update rule: defaults, a check of the hyperparameters, and `update`, which returns the new
 * value of the parameter (computed with ops; the core writes it in place) and sets state tensors.
 */
export interface UpdateRule {
  /** Shown in errors and reprs: 'Adam', 'SGD', 'KerasAdam', … */
  readonly name: string;
  readonly defaults: Hyper;
  validate?(hyper: Hyper): void;
  /**
   * Called for every parameter of a step before any `update` of that step: state the updates
   * need (the fused Adam's zero moments) is made here, so no fill runs between two updates.
   */
  prepare?(ctx: UpdateContext): void;
  update(ctx: UpdateContext): Tensor;
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return value !== null && typeof value === 'object' && Symbol.iterator in value;
}

function hyperOf(value: unknown, key: string, rule: string): HyperValue {
  if (value === null || ['number', 'boolean', 'string'].includes(typeof value))
    return value as HyperValue;
  if (Array.isArray(value) && value.every((v) => typeof v === 'number')) return value as number[];
  throw new TypeError(
    `${rule}: hyperparameter ${key} must be a number, a flag or a list of numbers`,
  );
}

export class Optimizer {
  readonly paramGroups: ParamGroup[] = [];
  readonly state = new Map<Tensor, ParamState>();
  readonly defaults: Hyper;

  constructor(
    params: ParamsInput,
    readonly rule: UpdateRule,
    hyper: Record<string, unknown> = {},
  ) {
    const defaults: Hyper = { ...rule.defaults };
    for (const [key, value] of Object.entries(hyper)) {
      if (value === undefined) continue;
      if (!(key in rule.defaults)) {
        throw new TypeError(
          `${rule.name}() got an unexpected keyword argument '${key}' (it takes: ${Object.keys(rule.defaults).join(', ')})`,
        );
      }
      defaults[key] = hyperOf(value, key, rule.name);
    }
    rule.validate?.(defaults);
    this.defaults = defaults;
    if (!isIterable(params)) {
      throw new TypeError(`${rule.name}: params must be a list of tensors or of parameter groups`);
    }
    // Keras optimizers start empty and meet their variables in applyUpdates.
    const list = [...(params as Iterable<unknown>)];
    if (list.length > 0 && !(list[0] instanceof Tensor)) {
      for (const group of list) this.addParamGroup(group as { params: Iterable<Tensor> });
    } else if (list.length > 0) {
      this.addParamGroup({ params: list as Tensor[] });
    }
  }

  /** Adds a group; hyperparameters it does not give come from the defaults. */
  addParamGroup(group: { params: Iterable<Tensor> } & Record<string, unknown>): void {
    const params = [...(group.params instanceof Tensor ? [group.params] : group.params)];
    const seen = new Set(this.paramGroups.flatMap((g) => g.params));
    params.forEach((p, i) => {
      if (!(p instanceof Tensor)) {
        throw new TypeError(
          `${this.rule.name} can only optimize Tensors, but parameter ${i} is not one`,
        );
      }
      if (!p.isLeaf)
        throw new Error(`${this.rule.name}: can't optimize a non-leaf Tensor (parameter ${i})`);
      if (seen.has(p)) throw new Error('some parameters appear in more than one parameter group');
      seen.add(p);
    });
    const out: ParamGroup = { ...this.defaults, params };
    for (const [key, value] of Object.entries(group)) {
      if (key === 'params' || value === undefined) continue;
      if (!(key in this.defaults)) {
        throw new TypeError(
          `${this.rule.name}: unknown hyperparameter '${key}' in a parameter group`,
        );
      }
      out[key] = hyperOf(value, key, this.rule.name);
    }
    this.rule.validate?.(out as unknown as Hyper);
    this.paramGroups.push(out);
  }

  /** Clears gradients: to null (PyTorch's default), or to zeros in place with setToNone false. */
  zeroGrad(options: { setToNone?: boolean } = {}): void {
    const setToNone = options.setToNone ?? true;
    for (const group of this.paramGroups) {
      for (const p of group.params) {
        const grad = p.gradInternal;
        if (grad === null) continue;
        if (setToNone) p.dropGrad();
        else if (!grad.isDisposed) fillInto(grad, 0);
      }
    }
  }

  /** Updates every parameter that has a gradient, then ends the training step. */
  step(): void {
    const pairs: [Tensor, Tensor][] = [];
    for (const group of this.paramGroups) {
      for (const p of group.params) {
        const grad = p.gradInternal;
        if (grad !== null) pairs.push([grad, p]);
      }
    }
    this.applyUpdates(pairs);
  }

  /**
   * Applies the rule with explicitly given gradients (Keras's `apply_gradients`): parameters not
   * yet in a group join the first one. Calls the engine's stepBoundary once at the end.
   */
  applyUpdates(pairs: Iterable<readonly [Tensor | null, Tensor]>): void {
    const groupOf = new Map<Tensor, ParamGroup>();
    for (const group of this.paramGroups) for (const p of group.params) groupOf.set(p, group);
    const updates: [Tensor, Tensor, ParamGroup][] = [];
    for (const [grad, param] of pairs) {
      if (grad === null || grad === undefined) continue;
      let group = groupOf.get(param);
      if (!group) {
        if (this.paramGroups.length === 0) this.addParamGroup({ params: [param] });
        else this.addParamGroup({ params: [param], ...groupHyper(this.paramGroups[0]) });
        group = this.paramGroups[this.paramGroups.length - 1];
        groupOf.set(param, group);
      }
      updates.push([param, grad, group]);
    }
    const prepare = this.rule.prepare?.bind(this.rule);
    if (prepare) {
      noGrad(() => {
        for (const [param, grad, group] of updates) {
          if (!shapesEqual(grad.shape, param.shape)) continue; // updateOne reports it
          prepare({ param, grad, state: this.stateOf(param), hyper: groupHyper(group) });
        }
      });
    }
    for (const [param, grad, group] of updates) this.updateOne(param, grad, group);
    stepBoundary();
  }

  private stateOf(param: Tensor): ParamState {
    let state = this.state.get(param);
    if (!state) {
      state = new ParamState();
      this.state.set(param, state);
    }
    return state;
  }

  private updateOne(param: Tensor, grad: Tensor, group: ParamGroup): void {
    if (!shapesEqual(grad.shape, param.shape)) {
      throw new Error(
        `${this.rule.name}: gradient of shape ${formatShape(grad.shape)} does not match its ` +
          `parameter of shape ${formatShape(param.shape)}`,
      );
    }
    const state = this.stateOf(param);
    // A model moved to another device after the optimizer saw it: its state follows it.
    for (const [name, t] of state.tensors) {
      if (t.deviceObject !== param.deviceObject) state.set(name, toDevice(t, param.deviceObject));
    }
    const hyper = groupHyper(group);
    const ctx: UpdateContext = { param, grad, state, hyper };
    state.step++;
    noGrad(() => {
      // Temporaries of the update are released when it returns; state tensors were kept.
      scopedAll(() => {
        const next = this.rule.update(ctx);
        // A fused rule (one Adam kernel) has already updated the parameter in place.
        if (next !== param) copyInto(param, next);
        return [] as Tensor[];
      });
    });
  }

  /**
   * PyTorch's `state_dict()`: each group's hyperparameters with its parameters as indices (in
   * group order, counted across groups), and each updated parameter's state by index — copies, so
   * later steps do not change a saved dict.
   */
  stateDict(): OptimizerStateDict {
    const state: Record<number, SavedParamState> = {};
    const paramGroups: SavedParamGroup[] = [];
    let index = 0;
    for (const group of this.paramGroups) {
      const params: number[] = [];
      for (const p of group.params) {
        const s = this.state.get(p);
        if (s) {
          const tensors: Record<string, Tensor> = {};
          for (const [name, t] of s.tensors) tensors[name] = noGrad(() => clone(t));
          state[index] = { step: s.step, tensors, scalars: Object.fromEntries(s.scalars) };
        }
        params.push(index++);
      }
      paramGroups.push({ ...groupHyper(group), params });
    }
    return { state, paramGroups };
  }

  /** PyTorch's `load_state_dict()`: the groups' hyperparameters and the parameters' state. */
  loadStateDict(dict: OptimizerStateDict): void {
    const { paramGroups, state } = dict;
    if (paramGroups.length !== this.paramGroups.length)
      throw new Error('loaded state dict has a different number of parameter groups');
    paramGroups.forEach((saved, i) => {
      if (saved.params.length !== this.paramGroups[i].params.length) {
        throw new Error(
          "loaded state dict contains a parameter group that doesn't match the size of optimizer's group",
        );
      }
    });
    this.state.clear();
    paramGroups.forEach((saved, i) => {
      const group = this.paramGroups[i];
      for (const [key, value] of Object.entries(saved))
        if (key !== 'params') group[key] = hyperOf(value, key, this.rule.name);
      saved.params.forEach((index, j) => {
        const entry = state[index];
        if (!entry) return;
        const param = group.params[j];
        const restored = new ParamState();
        restored.step = entry.step;
        for (const [name, t] of Object.entries(entry.tensors)) {
          // A copy on the parameter's device: the loaded dict stays the caller's.
          restored.set(
            name,
            noGrad(() => clone(toDevice(t, param.deviceObject))),
          );
        }
        for (const [name, v] of Object.entries(entry.scalars)) restored.scalars.set(name, v);
        this.state.set(param, restored);
      });
    });
  }

  /** Python's repr: the rule's name and each group's hyperparameters. */
  toString(): string {
    const lines = [`${this.rule.name} (`];
    this.paramGroups.forEach((group, i) => {
      lines.push(`Parameter Group ${i}`);
      for (const [key, value] of Object.entries(groupHyper(group))) {
        lines.push(`    ${key}: ${Array.isArray(value) ? `(${value.join(', ')})` : String(value)}`);
      }
    });
    lines.push(')');
    return lines.join('\n');
  }
}

function groupHyper(group: ParamGroup): Hyper {
  const hyper: Hyper = {};
  for (const [key, value] of Object.entries(group))
    if (key !== 'params') hyper[key] = value as HyperValue;
  return hyper;
}

/** Reads a numeric hyperparameter (rules call this so a wrong type fails with the rule's name). */
export function num(hyper: Hyper, key: string): number {
  const v = hyper[key];
  if (typeof v !== 'number')
    throw new TypeError(`optimizer hyperparameter ${key} must be a number, got ${String(v)}`);
  return v;
}

export function flag(hyper: Hyper, key: string): boolean {
  return hyper[key] === true;
}

export function pair(hyper: Hyper, key: string): [number, number] {
  const v = hyper[key];
  if (!Array.isArray(v) || v.length !== 2)
    throw new TypeError(`optimizer hyperparameter ${key} must be a pair of numbers`);
  return [v[0], v[1]];
}
