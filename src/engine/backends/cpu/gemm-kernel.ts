/**
 * The emitted WebAssembly SIMD GEMM micro-kernel: `tile(a, b, c, mPanels, nPanels, k, ldc)`
 * computes a block of C = A @ B from packed operands (pack.ts): A as panels of MR rows
 * ([k][MR] each), B as panels of NR columns ([k][NR] each), both zero-padded, k a multiple of
 * the unroll. It walks K in blocks of KC so one B micro-panel (KC×NR floats) stays in L1 while
 * every A micro-panel of the tile passes over it, and the tile's A block stays in L2.
 */
import { Locals, forLoop, op, wasmModule, type MemoryImport } from './wasm-encoder';

export interface KernelShape {
  /** Rows of C per micro-tile (A panel height). */
  mr: number;
  /** Columns of C per micro-tile (B panel width), a multiple of 4. */
  nr: number;
  /** K steps per block (a multiple of unroll). */
  kc: number;
  /** K steps per trip of the inner loop. */
  unroll: number;
  /** Use f32x4.relaxed_madd (one fused instruction where the CPU has FMA) instead of mul + add. */
  fma: boolean;
}

/**
 * 4×8, not unrolled, with or without FMA: measured best (cpu-speed.bench.ts, bench/NOTES.md
 * section 9). TurboFan issues all of a k step's splat loads before its FMAs, so MR splats, the
 * B vectors and the accumulators are live at once: 4 + 2 + 8 = 14 of the 15 xmm registers V8
 * allocates. 6×8 (20 live) and 4×12 spill accumulators every k step; unrolling doubles the splats.
 */
export const FMA_SHAPE: KernelShape = { mr: 4, nr: 8, kc: 256, unroll: 1, fma: true };
export const PLAIN_SHAPE: KernelShape = { mr: 4, nr: 8, kc: 256, unroll: 1, fma: false };

/** The `tile` function's body. Params: 0 a, 1 b, 2 c, 3 mPanels, 4 nPanels, 5 k, 6 ldc. */
function tileFunction(shape: KernelShape) {
  const { mr, nr, kc, unroll, fma } = shape;
  const vecs = nr / 4;
  const [A, B, C, MP, NP, K, LDC] = [0, 1, 2, 3, 4, 5, 6];
  const locals = new Locals(7);
  const [aStride, bStride, pc, kcBytesB, jr, ir, bPanel, bEnd, cCol, ap, bp, cp] = Array.from(
    { length: 12 },
    () => locals.i32(),
  );
  const acc = Array.from({ length: mr }, () => Array.from({ length: vecs }, () => locals.v128()));
  const bv = Array.from({ length: vecs }, () => locals.v128());
  const av = locals.v128();
  const code: number[] = [];

  // Byte strides between panels: k × MR and k × NR floats.
  code.push(...op.get(K), ...op.i32(mr * 4), ...op.mul, ...op.set(aStride));
  code.push(...op.get(K), ...op.i32(nr * 4), ...op.mul, ...op.set(bStride));

  // One unrolled trip of the K loop: for each of `unroll` k steps, B's NR floats, then each row.
  const trip: number[] = [];
  for (let u = 0; u < unroll; u++) {
    for (let v = 0; v < vecs; v++) {
      trip.push(...op.get(bp), ...op.v128Load((u * nr + v * 4) * 4), ...op.set(bv[v]));
    }
    for (let r = 0; r < mr; r++) {
      trip.push(...op.get(ap), ...op.v128Load32Splat((u * mr + r) * 4), ...op.set(av));
      for (let v = 0; v < vecs; v++) {
        if (fma) {
          trip.push(...op.get(av), ...op.get(bv[v]), ...op.get(acc[r][v]), ...op.f32x4RelaxedMadd);
        } else {
          trip.push(...op.get(acc[r][v]), ...op.get(av), ...op.get(bv[v]), ...op.f32x4Mul);
          trip.push(...op.f32x4Add);
        }
        trip.push(...op.set(acc[r][v]));
      }
    }
  }
  trip.push(...op.get(ap), ...op.i32(unroll * mr * 4), ...op.add, ...op.set(ap));
  trip.push(...op.get(bp), ...op.i32(unroll * nr * 4), ...op.add, ...op.set(bp));

  // One micro-tile: zero, run the K block (do-while: a block is never empty), add C unless this
  // is the first block, store.
  const micro: number[] = [];
  for (const row of acc) for (const a of row) micro.push(...op.v128Zero, ...op.set(a));
  // ap = a + ir * aStride + pc * MR * 4; bp = bPanel.
  micro.push(...op.get(A), ...op.get(ir), ...op.get(aStride), ...op.mul, ...op.add);
  micro.push(...op.get(pc), ...op.i32(mr * 4), ...op.mul, ...op.add, ...op.set(ap));
  micro.push(...op.get(bPanel), ...op.set(bp));
  micro.push(...op.loop, ...trip, ...op.get(bp), ...op.get(bEnd), ...op.ltU, ...op.brIf(0));
  micro.push(...op.end);
  // cp = cCol + ir * MR * ldc
  micro.push(...op.get(cCol), ...op.get(ir), ...op.i32(mr), ...op.mul, ...op.get(LDC), ...op.mul);
  micro.push(...op.add, ...op.set(cp));
  micro.push(...op.get(pc), ...op.if);
  for (let r = 0; r < mr; r++) {
    for (let v = 0; v < vecs; v++) {
      micro.push(...op.get(acc[r][v]), ...op.get(cp), ...op.v128Load(v * 16), ...op.f32x4Add);
      micro.push(...op.set(acc[r][v]));
    }
    micro.push(...op.get(cp), ...op.get(LDC), ...op.add, ...op.set(cp));
  }
  micro.push(...op.end);
  // cp back to the tile's first row, then store row by row.
  micro.push(...op.get(cCol), ...op.get(ir), ...op.i32(mr), ...op.mul, ...op.get(LDC), ...op.mul);
  micro.push(...op.add, ...op.set(cp));
  for (let r = 0; r < mr; r++) {
    for (let v = 0; v < vecs; v++) {
      micro.push(...op.get(cp), ...op.get(acc[r][v]), ...op.v128Store(v * 16));
    }
    if (r < mr - 1) micro.push(...op.get(cp), ...op.get(LDC), ...op.add, ...op.set(cp));
  }

  // for jr: the B micro-panel of this K block; for ir: one micro-tile.
  const columns: number[] = [];
  // bPanel = b + jr * bStride + pc * NR * 4; bEnd = bPanel + kcBytesB; cCol = c + jr * NR * 4.
  columns.push(...op.get(B), ...op.get(jr), ...op.get(bStride), ...op.mul, ...op.add);
  columns.push(...op.get(pc), ...op.i32(nr * 4), ...op.mul, ...op.add, ...op.tee(bPanel));
  columns.push(...op.get(kcBytesB), ...op.add, ...op.set(bEnd));
  columns.push(...op.get(C), ...op.get(jr), ...op.i32(nr * 4), ...op.mul, ...op.add);
  columns.push(...op.set(cCol));
  columns.push(...forLoop(ir, op.i32(0), op.get(MP), op.i32(1), micro));

  // for pc in steps of KC: kcBytesB = min(KC, k - pc) * NR * 4.
  const blockK: number[] = [];
  blockK.push(...op.get(K), ...op.get(pc), ...op.sub, ...op.set(kcBytesB));
  blockK.push(...op.get(kcBytesB), ...op.i32(kc), ...op.geU, ...op.if);
  blockK.push(...op.i32(kc), ...op.set(kcBytesB), ...op.end);
  blockK.push(...op.get(kcBytesB), ...op.i32(nr * 4), ...op.mul, ...op.set(kcBytesB));
  blockK.push(...forLoop(jr, op.i32(0), op.get(NP), op.i32(1), columns));
  code.push(...forLoop(pc, op.i32(0), op.get(K), op.i32(kc), blockK));

  return { exportName: 'tile', params: 7, locals, body: code };
}

/** The module: imports memory "env.memory" (shared or not), exports tile(...). */
export function gemmKernelBytes(shape: KernelShape, memory: MemoryImport): Uint8Array<ArrayBuffer> {
  if (shape.nr % 4 !== 0 || shape.kc % shape.unroll !== 0) {
    throw new Error('gemm kernel: nr must be a multiple of 4 and kc of unroll');
  }
  return wasmModule(memory, [tileFunction(shape)]);
}

/** Whether this engine accepts relaxed-SIMD FMA (Chromium ≥ 114; Node 20 only behind a flag). */
export function relaxedSimdSupported(): boolean {
  try {
    return (
      typeof WebAssembly !== 'undefined' &&
      WebAssembly.validate(gemmKernelBytes(FMA_SHAPE, { shared: false, minPages: 1, maxPages: 1 }))
    );
  } catch {
    return false;
  }
}
