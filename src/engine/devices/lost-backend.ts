/**
 * What a logical GPU's backend becomes once its GPUDevice is lost: every kernel, allocation and
 * read fails with one clear error naming the device and why, instead of WebGPU's silent no-ops on
 * a dead device; releasing memory still works so lifetimes unwind quietly.
 */
import type { Backend } from '../backend';

export class DeviceLostError extends Error {
  override name = 'DeviceLostError';
  constructor(
    readonly device: string,
    readonly reason: string,
  ) {
    super(
      `${device} was lost (${reason}). Tensors that lived on it are gone; the engine recreated ` +
        `${device}, so run the cells that made them again.`,
    );
  }
}

// Spilled blocks of a lost device are simply forgotten; nothing is spilled from it.
const QUIET = new Set<PropertyKey>(['release', 'emptyCache', 'discard']);
const ASYNC = new Set<PropertyKey>(['read', 'synchronize']);

export function lostBackend(device: string, reason: string): Backend {
  const error = new DeviceLostError(device, reason);
  return new Proxy({} as Backend, {
    get(_target, property) {
      if (property === 'kind') return 'webgpu';
      if (property === 'then') return undefined;
      if (property === 'spill') return () => null;
      if (QUIET.has(property)) return () => {};
      if (ASYNC.has(property)) return () => Promise.reject(error);
      return () => {
        throw error;
      };
    },
  });
}
