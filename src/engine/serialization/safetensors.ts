/**
 * The safetensors format, byte for byte: an 8-byte little-endian header length, a JSON header
 * mapping each tensor name to { dtype, shape, data_offsets } (plus an optional string-to-string
 * `__metadata__`), padded with spaces to a multiple of 8, then the raw little-endian data.
 * We write F32 and I32; reading also converts the other common dtypes (F64, F16, BF16, I64, …).
 */

export interface HostTensor {
  dtype: 'float32' | 'int32';
  shape: number[];
  data: Float32Array | Int32Array;
}

export interface SafetensorsFile {
  tensors: Map<string, HostTensor>;
  metadata: Record<string, string> | null;
}

interface HeaderEntry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

const BYTES: Record<string, number> = {
  F64: 8,
  F32: 4,
  F16: 2,
  BF16: 2,
  I64: 8,
  I32: 4,
  I16: 2,
  I8: 1,
  U8: 1,
  BOOL: 1,
};

export function encodeSafetensors(
  tensors: Map<string, HostTensor> | Record<string, HostTensor>,
  metadata?: Record<string, string>,
): Uint8Array {
  const entries = tensors instanceof Map ? [...tensors.entries()] : Object.entries(tensors);
  const header: Record<string, unknown> = {};
  if (metadata && Object.keys(metadata).length > 0) {
    for (const [k, v] of Object.entries(metadata)) {
      if (typeof v !== 'string')
        throw new TypeError(`safetensors metadata values must be strings (key ${k})`);
    }
    header.__metadata__ = metadata;
  }
  let offset = 0;
  for (const [name, t] of entries) {
    if (name === '__metadata__') throw new Error('a tensor cannot be named __metadata__');
    const count = t.shape.reduce((a, b) => a * b, 1);
    if (count !== t.data.length)
      throw new Error(
        `safetensors: tensor ${name} has ${t.data.length} values for shape [${t.shape}]`,
      );
    const bytes = count * 4;
    header[name] = {
      dtype: t.dtype === 'int32' ? 'I32' : 'F32',
      shape: t.shape,
      data_offsets: [offset, offset + bytes],
    };
    offset += bytes;
  }
  let json = new TextEncoder().encode(JSON.stringify(header));
  const padded = Math.ceil(json.length / 8) * 8;
  if (padded !== json.length) {
    const withSpaces = new Uint8Array(padded).fill(0x20);
    withSpaces.set(json);
    json = withSpaces;
  }
  const out = new Uint8Array(8 + json.length + offset);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  let at = 8 + json.length;
  for (const [, t] of entries) {
    const values = new DataView(out.buffer, at, t.data.length * 4);
    for (let i = 0; i < t.data.length; i++) {
      if (t.dtype === 'int32') values.setInt32(i * 4, t.data[i], true);
      else values.setFloat32(i * 4, t.data[i], true);
    }
    at += t.data.length * 4;
  }
  return out;
}

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}

function readValues(
  dtype: string,
  view: DataView,
  count: number,
  name: string,
): Float32Array | Int32Array {
  const size = BYTES[dtype];
  const isFloat = ['F64', 'F32', 'F16', 'BF16'].includes(dtype);
  const out = isFloat ? new Float32Array(count) : new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const at = i * size;
    switch (dtype) {
      case 'F32':
        out[i] = view.getFloat32(at, true);
        break;
      case 'F64':
        out[i] = view.getFloat64(at, true);
        break;
      case 'F16':
        out[i] = halfToFloat(view.getUint16(at, true));
        break;
      case 'BF16': {
        const bits = new DataView(new ArrayBuffer(4));
        bits.setUint32(0, view.getUint16(at, true) << 16);
        out[i] = bits.getFloat32(0);
        break;
      }
      case 'I32':
        out[i] = view.getInt32(at, true);
        break;
      case 'I64': {
        const v = view.getBigInt64(at, true);
        if (v > 2147483647n || v < -2147483648n)
          throw new RangeError(`safetensors: ${name} holds an int64 value outside int32's range`);
        out[i] = Number(v);
        break;
      }
      case 'I16':
        out[i] = view.getInt16(at, true);
        break;
      case 'I8':
        out[i] = view.getInt8(at);
        break;
      case 'U8':
      case 'BOOL':
        out[i] = view.getUint8(at);
        break;
    }
  }
  return out;
}

export function decodeSafetensors(bytes: Uint8Array): SafetensorsFile {
  if (bytes.length < 8)
    throw new Error('Not a safetensors file: shorter than its 8-byte header length');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  if (headerLength > bytes.length - 8)
    throw new Error(`Not a safetensors file: header length ${headerLength} exceeds the file`);
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength))) as Record<
      string,
      unknown
    >;
  } catch {
    throw new Error('Not a safetensors file: the header is not JSON');
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header))
    throw new Error('safetensors: the header must be an object');
  const dataStart = 8 + headerLength;
  const dataLength = bytes.length - dataStart;
  const tensors = new Map<string, HostTensor>();
  let metadata: Record<string, string> | null = null;
  for (const [name, raw] of Object.entries(header)) {
    if (name === '__metadata__') {
      metadata = raw as Record<string, string>;
      continue;
    }
    const entry = raw as HeaderEntry;
    if (
      !entry ||
      typeof entry.dtype !== 'string' ||
      !Array.isArray(entry.shape) ||
      !Array.isArray(entry.data_offsets)
    ) {
      throw new Error(`safetensors: malformed entry for ${name}`);
    }
    const size = BYTES[entry.dtype];
    if (size === undefined)
      throw new Error(`safetensors: dtype ${entry.dtype} of ${name} is not supported`);
    const [begin, end] = entry.data_offsets;
    const count = entry.shape.reduce((a, b) => a * b, 1);
    if (!(begin >= 0 && end >= begin && end <= dataLength) || end - begin !== count * size) {
      throw new Error(
        `safetensors: data_offsets [${begin}, ${end}] of ${name} do not fit its shape [${entry.shape}] and dtype ${entry.dtype}`,
      );
    }
    const slice = new DataView(bytes.buffer, bytes.byteOffset + dataStart + begin, end - begin);
    const data = readValues(entry.dtype, slice, count, name);
    tensors.set(name, {
      dtype: data instanceof Int32Array ? 'int32' : 'float32',
      shape: [...entry.shape],
      data,
    });
  }
  return { tensors, metadata };
}
