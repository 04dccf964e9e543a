/**
 * Loading a state dict into a module's tensors with PyTorch's checks and messages: missing and
 * unexpected keys (fatal when strict) and size mismatches (always fatal). Nothing is copied
 * unless everything checks out, so a failed load leaves the model as it was.
 */
import { noGrad } from '../autograd';
import { copyInto } from '../ops/inplace';
import { Tensor } from '../tensor';

export type StateDict = Record<string, Tensor>;

export interface LoadStateDictOptions {
  strict?: boolean;
}

/** PyTorch's `_IncompatibleKeys`: prints `<All keys matched successfully>` when both are empty. */
export class IncompatibleKeys {
  constructor(
    readonly missingKeys: string[],
    readonly unexpectedKeys: string[],
  ) {}

  toString(): string {
    if (this.missingKeys.length === 0 && this.unexpectedKeys.length === 0)
      return '<All keys matched successfully>';
    const list = (keys: string[]): string => `[${keys.map((k) => `'${k}'`).join(', ')}]`;
    return `_IncompatibleKeys(missing_keys=${list(this.missingKeys)}, unexpected_keys=${list(this.unexpectedKeys)})`;
  }
}

const torchSize = (shape: readonly number[]): string => `torch.Size([${shape.join(', ')}])`;
const quoted = (keys: string[]): string => keys.map((k) => `"${k}"`).join(', ');

export function loadState(
  owner: string,
  targets: Map<string, Tensor>,
  source: StateDict | Map<string, Tensor>,
  strict: boolean,
): IncompatibleKeys {
  if (source === null || typeof source !== 'object') {
    throw new TypeError(
      `Expected state_dict to be dict-like, got ${source === null ? 'null' : typeof source}.`,
    );
  }
  const entries = source instanceof Map ? [...source.entries()] : Object.entries(source);
  const given = new Map<string, Tensor>();
  for (const [key, value] of entries) {
    if (!(value instanceof Tensor))
      throw new TypeError(`state_dict entry "${key}" is not a Tensor`);
    given.set(key, value);
  }
  const missing = [...targets.keys()].filter((k) => !given.has(k));
  const unexpected = [...given.keys()].filter((k) => !targets.has(k));
  const errors: string[] = [];
  if (strict && missing.length > 0)
    errors.push(`Missing key(s) in state_dict: ${quoted(missing)}. `);
  if (strict && unexpected.length > 0)
    errors.push(`Unexpected key(s) in state_dict: ${quoted(unexpected)}. `);
  for (const [key, target] of targets) {
    const value = given.get(key);
    if (value && value.shape.join() !== target.shape.join()) {
      errors.push(
        `size mismatch for ${key}: copying a param with shape ${torchSize(value.shape)} from checkpoint, ` +
          `the shape in current model is ${torchSize(target.shape)}.`,
      );
    }
  }
  if (errors.length > 0)
    throw new Error(`Error(s) in loading state_dict for ${owner}:\n\t${errors.join('\n\t')}`);
  noGrad(() => {
    for (const [key, target] of targets) {
      const value = given.get(key);
      if (value && value !== target && value.res.storage !== target.res.storage)
        copyInto(target, value);
    }
  });
  return new IncompatibleKeys(missing, unexpected);
}
