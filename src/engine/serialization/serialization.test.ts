import { afterEach, describe, expect, it } from 'vitest';
import { cpu } from '../devices/registry';
import { fromHost } from '../ops/creation';
import { Tensor } from '../tensor';
import {
  decodeSafetensors,
  encodeSafetensors,
  load,
  memoryTensorStore,
  save,
  setTensorStore,
} from '.';

afterEach(() => setTensorStore(null));

/** A file built by hand from the spec: header length, JSON header, padding, little-endian data. */
function handBuiltFile(): Uint8Array {
  const header = JSON.stringify({
    __metadata__: { format: 'pt' },
    'fc.weight': { dtype: 'F32', shape: [2, 2], data_offsets: [0, 16] },
    labels: { dtype: 'I64', shape: [3], data_offsets: [16, 40] },
    half: { dtype: 'F16', shape: [2], data_offsets: [40, 44] },
  });
  const headerBytes = new TextEncoder().encode(header);
  const bytes = new Uint8Array(8 + headerBytes.length + 44);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, headerBytes.length, true);
  bytes.set(headerBytes, 8);
  const base = 8 + headerBytes.length;
  [1.5, -2, 0.25, 8].forEach((v, i) => view.setFloat32(base + 4 * i, v, true));
  [7n, -1n, 42n].forEach((v, i) => view.setBigInt64(base + 16 + 8 * i, v, true));
  view.setUint16(base + 40, 0x3c00, true); // 1.0
  view.setUint16(base + 42, 0xc100, true); // -2.5
  return bytes;
}

describe('safetensors', () => {
  it('decodes a hand-built file (F32, I64 and F16 converted)', () => {
    const file = decodeSafetensors(handBuiltFile());
    expect(file.metadata).toEqual({ format: 'pt' });
    expect(file.tensors.get('fc.weight')).toEqual({
      dtype: 'float32',
      shape: [2, 2],
      data: Float32Array.from([1.5, -2, 0.25, 8]),
    });
    expect(file.tensors.get('labels')).toEqual({
      dtype: 'int32',
      shape: [3],
      data: Int32Array.from([7, -1, 42]),
    });
    expect(Array.from(file.tensors.get('half')?.data ?? [])).toEqual([1, -2.5]);
  });

  it('encodes the exact layout and round-trips', () => {
    const w = { dtype: 'float32' as const, shape: [3], data: Float32Array.from([0.1, -7, 3e5]) };
    const y = { dtype: 'int32' as const, shape: [2, 1], data: Int32Array.from([-3, 9]) };
    const bytes = encodeSafetensors({ w, y }, { note: 'hi' });
    const view = new DataView(bytes.buffer);
    const headerLength = Number(view.getBigUint64(0, true));
    expect(headerLength % 8).toBe(0);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
    expect(header).toEqual({
      __metadata__: { note: 'hi' },
      w: { dtype: 'F32', shape: [3], data_offsets: [0, 12] },
      y: { dtype: 'I32', shape: [2, 1], data_offsets: [12, 20] },
    });
    expect(bytes.length).toBe(8 + headerLength + 20);
    expect(view.getFloat32(8 + headerLength + 4, true)).toBe(-7);
    expect(view.getInt32(8 + headerLength + 12, true)).toBe(-3);
    const back = decodeSafetensors(bytes);
    expect(back.tensors.get('w')).toEqual(w);
    expect(back.tensors.get('y')).toEqual(y);
  });

  it('rejects a truncated file and offsets that do not fit', () => {
    const bytes = handBuiltFile();
    expect(() => decodeSafetensors(bytes.subarray(0, 5))).toThrow(
      'shorter than its 8-byte header length',
    );
    expect(() => decodeSafetensors(bytes.subarray(0, bytes.length - 4))).toThrow(
      'data_offsets [40, 44] of half',
    );
  });
});

describe('torch.save and torch.load', () => {
  const t = (values: number[], shape: number[], int = false): Tensor =>
    fromHost(int ? Int32Array.from(values) : Float32Array.from(values), shape, { device: cpu() });

  it('round-trip a tensor, a state dict and a plain object of tensors', async () => {
    const store = memoryTensorStore();
    setTensorStore(store);
    await save(t([1, 2, 3, 4], [2, 2]), 'x.pt');
    const x = (await load('x.pt')) as Tensor;
    expect(x.shape).toEqual([2, 2]);
    expect(Array.from(await x.data())).toEqual([1, 2, 3, 4]);

    await save({ 'fc.weight': t([0.5, -1], [1, 2]), 'fc.bias': t([3], [1]) }, 'model.pt');
    const sd = (await load('model.pt')) as Record<string, Tensor>;
    expect(Object.keys(sd)).toEqual(['fc.weight', 'fc.bias']);
    expect(Array.from(await sd['fc.weight'].data())).toEqual([0.5, -1]);
    // A saved state dict is a plain safetensors file under PyTorch's names.
    const raw = decodeSafetensors((await store.get('model.pt')) as Uint8Array);
    expect([...raw.tensors.keys()]).toEqual(['fc.weight', 'fc.bias']);

    await save(
      { epoch: 3, best: 0.97, history: [1, Infinity], weights: { w: t([7, 8], [2], true) } },
      'ckpt.pt',
    );
    const obj = (await load('ckpt.pt')) as {
      epoch: number;
      best: number;
      history: number[];
      weights: { w: Tensor };
    };
    expect(obj.epoch).toBe(3);
    expect(obj.best).toBe(0.97);
    expect(obj.history).toEqual([1, Infinity]);
    expect(obj.weights.w.dtype).toBe('int32');
    expect(Array.from(await obj.weights.w.data())).toEqual([7, 8]);
    expect(await store.list()).toEqual(['ckpt.pt', 'model.pt', 'x.pt']);
  });

  it('says which files exist when a name is missing', async () => {
    await save(t([1], [1]), 'a.pt');
    await expect(load('b.pt')).rejects.toThrow(
      "No such file or directory: 'b.pt' (saved files: a.pt)",
    );
    await expect(save(new Map(), 'm.pt')).rejects.toThrow('cannot save Map');
  });
});
