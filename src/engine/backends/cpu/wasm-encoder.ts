/**
 * A minimal WebAssembly binary encoder: LEB128, sections, the handful of scalar and SIMD
 * instructions the CPU kernels use, structured loops, and a one-memory module assembler.
 */

export function uleb(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

export function sleb(value: number): number[] {
  const out: number[] = [];
  let v = value | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    const done = (v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vector = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (text: string): number[] =>
  vector([...new TextEncoder().encode(text)].map((b) => [b]));

export const I32 = 0x7f;
export const V128 = 0x7b;

/** Memory access immediates: alignment exponent, then the constant byte offset. */
const memarg = (align: number, offset: number): number[] => [align, ...uleb(offset)];
const simd = (code: number, ...rest: number[]): number[] => [0xfd, ...uleb(code), ...rest];

export const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...uleb(depth)],
  brIf: (depth: number) => [0x0d, ...uleb(depth)],
  get: (local: number) => [0x20, ...uleb(local)],
  set: (local: number) => [0x21, ...uleb(local)],
  tee: (local: number) => [0x22, ...uleb(local)],
  i32: (value: number) => [0x41, ...sleb(value)],
  eqz: [0x45],
  ne: [0x47],
  ltU: [0x49],
  geU: [0x4f],
  add: [0x6a],
  sub: [0x6b],
  mul: [0x6c],
  v128Load: (offset: number) => simd(0x00, ...memarg(4, offset)),
  v128Load32Splat: (offset: number) => simd(0x09, ...memarg(2, offset)),
  v128Store: (offset: number) => simd(0x0b, ...memarg(4, offset)),
  v128Zero: simd(0x0c, ...new Array<number>(16).fill(0)),
  f32x4Add: simd(0xe4),
  f32x4Mul: simd(0xe6),
  /** Relaxed SIMD: a * b + c, fused or not as the hardware prefers. */
  f32x4RelaxedMadd: simd(0x105),
};

/** `x = start; while (x < limit) { body; x += step }` over unsigned i32 locals. */
export function forLoop(
  x: number,
  start: number[],
  limit: number[],
  step: number[],
  body: number[],
): number[] {
  return [
    ...start,
    ...op.set(x),
    ...op.block,
    ...op.loop,
    ...op.get(x),
    ...limit,
    ...op.geU,
    ...op.brIf(1),
    ...body,
    ...op.get(x),
    ...step,
    ...op.add,
    ...op.set(x),
    ...op.br(0),
    ...op.end,
    ...op.end,
  ];
}

/** Hands out local indices after the parameters, grouped by type as the code section wants. */
export class Locals {
  private readonly i32s: number[] = [];
  private readonly v128s: number[] = [];
  private readonly pending: { type: number; index: number }[] = [];

  constructor(private readonly params: number) {}

  i32(): number {
    const index = this.params + this.pending.length;
    this.pending.push({ type: I32, index });
    this.i32s.push(index);
    return index;
  }

  v128(): number {
    const index = this.params + this.pending.length;
    this.pending.push({ type: V128, index });
    this.v128s.push(index);
    return index;
  }

  /** The local declarations, in index order, as runs of one type. */
  declarations(): number[] {
    const runs: number[][] = [];
    let last = -1;
    let count = 0;
    for (const { type } of this.pending) {
      if (type !== last && count > 0) {
        runs.push([...uleb(count), last]);
        count = 0;
      }
      last = type;
      count++;
    }
    if (count > 0) runs.push([...uleb(count), last]);
    return vector(runs);
  }
}

export interface WasmFunction {
  exportName: string;
  /** All parameters are i32; there are no results. */
  params: number;
  locals: Locals;
  body: number[];
}

export interface MemoryImport {
  shared: boolean;
  /** Minimum and maximum size in 64 KiB pages (a shared memory must declare its maximum). */
  minPages: number;
  maxPages: number;
}

/** A module importing memory "env.memory" and exporting the given functions. */
export function wasmModule(
  memory: MemoryImport,
  functions: WasmFunction[],
): Uint8Array<ArrayBuffer> {
  const types = section(
    1,
    vector(functions.map((f) => [0x60, ...vector(new Array(f.params).fill([I32])), 0])),
  );
  const limits = memory.shared
    ? [0x03, ...uleb(memory.minPages), ...uleb(memory.maxPages)]
    : [0x01, ...uleb(memory.minPages), ...uleb(memory.maxPages)];
  const imports = section(2, vector([[...name('env'), ...name('memory'), 0x02, ...limits]]));
  const declared = section(3, vector(functions.map((_, i) => uleb(i))));
  const exports = section(
    7,
    vector(functions.map((f, i) => [...name(f.exportName), 0x00, ...uleb(i)])),
  );
  const code = section(
    10,
    vector(
      functions.map((f) => {
        const body = [...f.locals.declarations(), ...f.body, ...op.end];
        return [...uleb(body.length), ...body];
      }),
    ),
  );
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...types,
    ...imports,
    ...declared,
    ...exports,
    ...code,
  ]);
}
