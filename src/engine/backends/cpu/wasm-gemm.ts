/**
 * A hand-written WebAssembly SIMD kernel for the CPU backend's matmul, emitted as bytes here (no
 * toolchain, no package): C[m×n] = A[m×k] @ B[k×n] in float32, row-major, for m % 4 == 0 and
 * n % 8 == 0 (callers pad). Each step of its inner loop keeps a 4×8 block of C in eight f32x4
 * registers and reads one f32x4 pair of B and four scalars of A, so B streams once per four rows.
 */

// --- A minimal encoder: LEB128 and the handful of instructions the kernel uses. ---------------

function uleb(value: number): number[] {
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

function sleb(value: number): number[] {
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

const I32 = 0x7f;
const V128 = 0x7b;
const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...uleb(depth)],
  brIf: (depth: number) => [0x0d, ...uleb(depth)],
  get: (local: number) => [0x20, ...uleb(local)],
  set: (local: number) => [0x21, ...uleb(local)],
  i32: (value: number) => [0x41, ...sleb(value)],
  add: [0x6a],
  mul: [0x6c],
  geU: [0x4f],
  eqz: [0x45],
  f32Load: [0x2a, 2, 0],
  simd: (code: number, ...rest: number[]) => [0xfd, ...uleb(code), ...rest],
};
const v128Load = (offset: number) => op.simd(0x00, 0, ...uleb(offset));
const v128Store = (offset: number) => op.simd(0x0b, 0, ...uleb(offset));
const f32x4Splat = op.simd(0x13);
const f32x4Add = op.simd(0xe4);
const f32x4Mul = op.simd(0xe6);
const v128Zero = op.simd(0x0c, ...new Array<number>(16).fill(0));

// Locals: params 0 a, 1 b, 2 c, 3 m, 4 k, 5 n (byte pointers and counts), then i32 and v128 ones.
/** Rows of C per block (the padding unit of m); columns per block are 8 (two f32x4). */
export const GEMM_ROWS = 4;
const [A, B, C, M, K, N] = [0, 1, 2, 3, 4, 5];
const [I, J, P, BP, ROWB, CP, JJ, JEND] = [6, 7, 8, 9, 10, 11, 12, 13];
/** Row pointers of A: locals 14 .. 14 + GEMM_ROWS - 1. */
const ROW_PTRS = Array.from({ length: GEMM_ROWS }, (_, r) => 14 + r);
const I32_LOCALS = 8 + GEMM_ROWS;
/** Columns of B per panel: k × 64 floats stay in L2 while every row block of A passes over them. */
const PANEL = 64;
/** v128 locals: accumulators (row r, half h) at ACC + 2 r + h, then b0, b1 and the splat of A. */
const ACC = 6 + I32_LOCALS;
const [B0, B1, AV] = [ACC + 2 * GEMM_ROWS, ACC + 2 * GEMM_ROWS + 1, ACC + 2 * GEMM_ROWS + 2];
const V128_LOCALS = 2 * GEMM_ROWS + 3;

/** `for (x = 0; x < limit; x += step) { body }` with i32 locals. */
function forLoop(x: number, limit: number[], step: number, body: number[]): number[] {
  return [
    ...op.i32(0),
    ...op.set(x),
    ...op.block,
    ...op.loop,
    ...op.get(x),
    ...limit,
    ...op.geU,
    ...op.brIf(1),
    ...body,
    ...op.get(x),
    ...op.i32(step),
    ...op.add,
    ...op.set(x),
    ...op.br(0),
    ...op.end,
    ...op.end,
  ];
}

function kernelBody(): number[] {
  const code: number[] = [];
  // ROWB = n * 4 (bytes per row of B and C).
  code.push(...op.get(N), ...op.i32(4), ...op.mul, ...op.set(ROWB));
  const inner: number[] = [];
  // b0, b1 = B[p, j..j+7]
  inner.push(...op.get(BP), ...v128Load(0), ...op.set(B0));
  inner.push(...op.get(BP), ...v128Load(16), ...op.set(B1));
  ROW_PTRS.forEach((row, r) => {
    inner.push(...op.get(row), ...op.f32Load, ...f32x4Splat, ...op.set(AV));
    for (const [h, b] of [
      [0, B0],
      [1, B1],
    ]) {
      const acc = ACC + 2 * r + h;
      inner.push(...op.get(acc), ...op.get(AV), ...op.get(b), ...f32x4Mul, ...f32x4Add);
      inner.push(...op.set(acc));
    }
    // Next k of this row of A.
    inner.push(...op.get(row), ...op.i32(4), ...op.add, ...op.set(row));
  });
  inner.push(...op.get(BP), ...op.get(ROWB), ...op.add, ...op.set(BP));

  const block: number[] = [];
  for (let a = 0; a < 2 * GEMM_ROWS; a++) block.push(...v128Zero, ...op.set(ACC + a));
  // Row pointers of A: a + (i + r) * k * 4.
  ROW_PTRS.forEach((row, r) => {
    block.push(...op.get(I), ...op.i32(r), ...op.add, ...op.get(K), ...op.mul, ...op.i32(4));
    block.push(...op.mul, ...op.get(A), ...op.add, ...op.set(row));
  });
  // BP = b + j * 4
  block.push(...op.get(J), ...op.i32(4), ...op.mul, ...op.get(B), ...op.add, ...op.set(BP));
  block.push(...forLoop(P, op.get(K), 1, inner));
  // Store the 4×8 block at C + (i * n + j) * 4, one row of C (n * 4 bytes) apart.
  block.push(...op.get(I), ...op.get(N), ...op.mul, ...op.get(J), ...op.add, ...op.i32(4));
  block.push(...op.mul, ...op.get(C), ...op.add, ...op.set(CP));
  for (let r = 0; r < GEMM_ROWS; r++) {
    for (let h = 0; h < 2; h++) {
      block.push(...op.get(CP), ...op.get(ACC + 2 * r + h), ...v128Store(16 * h));
    }
    block.push(...op.get(CP), ...op.get(ROWB), ...op.add, ...op.set(CP));
  }
  // for (jj = 0; jj < n; jj += PANEL) { jend = min(jj + PANEL, n); for i { for j in [jj, jend) } }
  const panel: number[] = [];
  panel.push(...op.get(JJ), ...op.i32(PANEL), ...op.add, ...op.set(JEND));
  panel.push(...op.block, ...op.get(JEND), ...op.get(N), ...op.geU, ...op.eqz);
  panel.push(...op.brIf(0), ...op.get(N), ...op.set(JEND), ...op.end);
  const columns = [
    ...op.get(JJ),
    ...op.set(J),
    ...op.block,
    ...op.loop,
    ...op.get(J),
    ...op.get(JEND),
    ...op.geU,
    ...op.brIf(1),
    ...block,
    ...op.get(J),
    ...op.i32(8),
    ...op.add,
    ...op.set(J),
    ...op.br(0),
    ...op.end,
    ...op.end,
  ];
  panel.push(...forLoop(I, op.get(M), GEMM_ROWS, columns));
  code.push(...forLoop(JJ, op.get(N), PANEL, panel));
  return code;
}

/** The module's bytes: imports memory "env.memory", exports gemm(a, b, c, m, k, n). */
export function gemmModuleBytes(): Uint8Array<ArrayBuffer> {
  const type = section(
    1,
    vector([[0x60, ...vector([[I32], [I32], [I32], [I32], [I32], [I32]]), 0]]),
  );
  const imports = section(
    2,
    vector([
      [
        ...uleb(3),
        ...new TextEncoder().encode('env'),
        ...uleb(6),
        ...new TextEncoder().encode('memory'),
        0x02,
        0x00,
        ...uleb(1),
      ],
    ]),
  );
  const functions = section(3, vector([[0]]));
  const exports = section(
    7,
    vector([[...uleb(4), ...new TextEncoder().encode('gemm'), 0x00, ...uleb(0)]]),
  );
  const locals = vector([
    [...uleb(I32_LOCALS), I32],
    [...uleb(V128_LOCALS), V128],
  ]);
  const body = [...locals, ...kernelBody(), ...op.end];
  const code = section(10, vector([[...uleb(body.length), ...body]]));
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...type,
    ...imports,
    ...functions,
    ...exports,
    ...code,
  ]);
}

type GemmFn = (a: number, b: number, c: number, m: number, k: number, n: number) => void;

interface WasmGemm {
  readonly memory: WebAssembly.Memory;
  readonly gemm: GemmFn;
}

let instance: WasmGemm | null | undefined;

/** The compiled kernel, or null where WebAssembly SIMD is unavailable (the JS loops run then). */
export function wasmGemm(): WasmGemm | null {
  if (instance !== undefined) return instance;
  try {
    const bytes = gemmModuleBytes();
    if (typeof WebAssembly === 'undefined' || !WebAssembly.validate(bytes)) {
      instance = null;
      return null;
    }
    const memory = new WebAssembly.Memory({ initial: 16 });
    const module = new WebAssembly.Module(bytes);
    const exports = new WebAssembly.Instance(module, { env: { memory } }).exports as {
      gemm: GemmFn;
    };
    instance = { memory, gemm: exports.gemm };
  } catch {
    instance = null;
  }
  return instance;
}

/**
 * C = A @ B through the WASM kernel. a: m×k and b: k×n row-major (any offsets); c receives m×n
 * row-major at cOffset. Pads m to GEMM_ROWS and n to 8 inside WASM memory; returns false without SIMD.
 */
export function gemmWasm(
  a: Float32Array,
  aOffset: number,
  b: Float32Array,
  bOffset: number,
  c: Float32Array,
  cOffset: number,
  m: number,
  k: number,
  n: number,
): boolean {
  const kernel = wasmGemm();
  if (!kernel) return false;
  const m4 = Math.ceil(m / GEMM_ROWS) * GEMM_ROWS;
  const n8 = Math.ceil(n / 8) * 8;
  const aBytes = m4 * k * 4;
  const bBytes = k * n8 * 4;
  const cBytes = m4 * n8 * 4;
  const needed = aBytes + bBytes + cBytes;
  const have = kernel.memory.buffer.byteLength;
  if (needed > have) kernel.memory.grow(Math.ceil((needed - have) / 65536));
  const heap = new Float32Array(kernel.memory.buffer);
  const aAt = 0;
  const bAt = aBytes / 4;
  const cAt = (aBytes + bBytes) / 4;
  heap.set(a.subarray(aOffset, aOffset + m * k), aAt);
  heap.fill(0, aAt + m * k, aAt + m4 * k);
  if (n8 === n) heap.set(b.subarray(bOffset, bOffset + k * n), bAt);
  else {
    for (let p = 0; p < k; p++) {
      const row = bAt + p * n8;
      heap.set(b.subarray(bOffset + p * n, bOffset + (p + 1) * n), row);
      heap.fill(0, row + n, row + n8);
    }
  }
  kernel.gemm(aAt * 4, bAt * 4, cAt * 4, m4, k, n8);
  if (n8 === n) c.set(heap.subarray(cAt, cAt + m * n), cOffset);
  else
    for (let i = 0; i < m; i++)
      c.set(heap.subarray(cAt + i * n8, cAt + i * n8 + n), cOffset + i * n);
  return true;
}
