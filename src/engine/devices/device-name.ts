/** Device spellings (torch, tf, ours) reduced to canonical names: 'cpu' and 'gpu:N'. */

/** Anything a user may pass as a device: a string or an object carrying a canonical `name`. */
export type DeviceSpec = string | { readonly name: string };

export type DeviceKind = 'cpu' | 'gpu';

export interface ParsedDevice {
  kind: DeviceKind;
  /** GPU index; 0 for cpu. */
  index: number;
  name: string;
}

const CPU = /^(?:cpu|\/cpu|\/device:cpu|\/physical_device:cpu)(?::0)?$/i;
const GPU = /^(?:gpu|cuda|\/gpu|\/device:gpu|\/physical_device:gpu)(?::(\d+))?$/i;

/** Accepts 'cpu', 'gpu', 'gpu:N', 'cuda', 'cuda:N', '/gpu:N', '/device:GPU:N', '/cpu:0', TF's full names. */
export function parseDeviceName(spec: DeviceSpec): ParsedDevice {
  const raw = typeof spec === 'string' ? spec : spec?.name;
  if (typeof raw !== 'string') {
    throw new TypeError(`Expected a device such as 'cpu' or 'gpu:0', got ${String(spec)}`);
  }
  // TensorFlow's fully qualified names end with the part we need.
  const text = raw.trim().replace(/^\/job:[^/]+\/replica:\d+\/task:\d+/i, '');
  if (CPU.test(text)) return { kind: 'cpu', index: 0, name: 'cpu' };
  const gpu = GPU.exec(text);
  if (gpu) {
    const index = gpu[1] === undefined ? 0 : Number(gpu[1]);
    return { kind: 'gpu', index, name: `gpu:${index}` };
  }
  throw new Error(
    `Unknown device ${JSON.stringify(raw)}: use 'cpu' or 'gpu:N' ` +
      `(also accepted: 'cuda', 'cuda:N', '/gpu:N', '/device:GPU:N', '/cpu:0')`,
  );
}
