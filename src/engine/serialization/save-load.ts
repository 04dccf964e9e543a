/**
 * torch.save / torch.load: a tensor, a state dict, or a plain object holding tensors, written as
 * one safetensors file (tensors under PyTorch's names; the rest of the object as JSON in the
 * metadata), so a saved state dict is also a valid `.safetensors` file for PyTorch.
 */
import type { Device } from '../devices/device';
import type { DeviceSpec } from '../devices/device-name';
import { cpu, getDevice } from '../devices/registry';
import { fromHost } from '../ops/creation';
import { Tensor } from '../tensor';
import { decodeSafetensors, encodeSafetensors, type HostTensor } from './safetensors';
import { getTensorStore } from './store';

const KIND = 'gpubook.kind';
const OBJECT = 'gpubook.object';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

async function toHost(t: Tensor): Promise<HostTensor> {
  const data = await t.data();
  return { dtype: t.dtype, shape: [...t.shape], data };
}

/** Encodes obj (reading tensors back from their devices). */
export async function encodeObject(obj: unknown): Promise<Uint8Array> {
  const tensors = new Map<string, Tensor>();
  let metadata: Record<string, string>;
  if (obj instanceof Tensor) {
    tensors.set('tensor', obj);
    metadata = { format: 'pt', [KIND]: 'tensor' };
  } else if (
    isPlainObject(obj) &&
    Object.keys(obj).length > 0 &&
    Object.values(obj).every((v) => v instanceof Tensor)
  ) {
    for (const [k, v] of Object.entries(obj)) tensors.set(k, v as Tensor);
    metadata = { format: 'pt', [KIND]: 'state_dict' };
  } else {
    const walk = (value: unknown, path: string): Json => {
      if (value instanceof Tensor) {
        tensors.set(path, value);
        return { __tensor__: path };
      }
      if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
      if (typeof value === 'number') {
        if (!Number.isFinite(value)) return { __number__: String(value) };
        return value;
      }
      if (Array.isArray(value))
        return value.map((v, i) => walk(v, path ? `${path}.${i}` : String(i)));
      if (isPlainObject(value)) {
        const out: Record<string, Json> = {};
        for (const [k, v] of Object.entries(value)) {
          if (v !== undefined) out[k] = walk(v, path ? `${path}.${k}` : k);
        }
        return out;
      }
      throw new TypeError(
        `torch.save: cannot save ${value === undefined ? 'undefined' : ((value as object).constructor?.name ?? typeof value)}` +
          `${path ? ` at '${path}'` : ''}; save tensors, state dicts (net.stateDict()) or plain objects of them`,
      );
    };
    const structure = walk(obj, '');
    metadata = { format: 'pt', [KIND]: 'object', [OBJECT]: JSON.stringify(structure) };
  }
  const host = new Map<string, HostTensor>();
  const names = [...tensors.keys()];
  const values = await Promise.all(names.map((n) => toHost(tensors.get(n) as Tensor)));
  names.forEach((n, i) => host.set(n, values[i]));
  return encodeSafetensors(host, metadata);
}

/** Decodes bytes written by encodeObject (or any safetensors file: a state dict). */
export function decodeObject(bytes: Uint8Array, device: Device = cpu()): unknown {
  const file = decodeSafetensors(bytes);
  const make = (name: string): Tensor => {
    const t = file.tensors.get(name);
    if (!t) throw new Error(`torch.load: the file names a tensor '${name}' it does not contain`);
    return fromHost(t.data, t.shape, { device, dtype: t.dtype });
  };
  const kind = file.metadata?.[KIND];
  if (kind === 'tensor') return make('tensor');
  if (kind === 'object') {
    const rebuild = (value: Json): unknown => {
      if (Array.isArray(value)) return value.map(rebuild);
      if (value !== null && typeof value === 'object') {
        if (typeof value.__tensor__ === 'string' && Object.keys(value).length === 1)
          return make(value.__tensor__);
        if (typeof value.__number__ === 'string' && Object.keys(value).length === 1)
          return Number(value.__number__);
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(value)) out[k] = rebuild(v);
        return out;
      }
      return value;
    };
    return rebuild(JSON.parse(file.metadata?.[OBJECT] ?? 'null') as Json);
  }
  const out: Record<string, Tensor> = {};
  for (const name of file.tensors.keys()) out[name] = make(name);
  return out;
}

/** `await torch.save(obj, 'model.pt')`: into the notebook's storage. */
export async function save(obj: unknown, name: string): Promise<void> {
  if (typeof name !== 'string' || name === '')
    throw new TypeError('torch.save: give a file name, e.g. "checkpoint.pt"');
  await getTensorStore().put(name, await encodeObject(obj));
}

/**
 * `await torch.load('model.pt', { mapLocation })`: tensors come back on the cpu unless mapped.
 * Typed as a state dict, what is loaded most; `torch.load<Tensor>(…)` names another kind.
 */
export async function load<T = Record<string, Tensor>>(
  name: string,
  options: { mapLocation?: DeviceSpec | Device | null } = {},
): Promise<T> {
  const store = getTensorStore();
  const bytes = await store.get(name);
  if (bytes === undefined) {
    const files = await store.list();
    throw new Error(
      `[Errno 2] No such file or directory: '${name}'` +
        (files.length ? ` (saved files: ${files.join(', ')})` : ' (nothing has been saved yet)'),
    );
  }
  const map = options.mapLocation;
  // The file says what it holds; the caller's type parameter says what it expects.
  return decodeObject(
    bytes,
    map === undefined || map === null ? cpu() : getDevice(map as DeviceSpec),
  ) as T;
}
