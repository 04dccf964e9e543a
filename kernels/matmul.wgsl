// Register-blocked matmul, out[b] = a[b] @ b[b]: each invocation computes an 8x8 tile of out (4x8
// with TM4) held in sixteen vec4 registers, with no workgroup memory and no barriers (CPU
// emulations such as SwiftShader pay dearly for those, and their JIT keeps only straight-line
// code in registers: loops over arrays measured 10x slower, hence the unrolled statements).
// Edge tiles clamp their loads to the last valid row/column instead of bounds-checking them, so
// the K loop has no branches; only stores check bounds.
// Placeholders: WGX, WGY workgroup shape.
// Flags: TM4 (4 rows per tile, for thin products),
//        A_VEC_K (A contiguous along k, K % 4 == 0, 4-aligned rows: one vec4 per row and 4 k),
//        A_VEC_M (A contiguous along m, M % 4 == 0: one vec4 holds 4 rows at one k),
//        B_VEC_N (B contiguous along n, N % 4 == 0), B_VEC_K (B contiguous along k, K % 4 == 0),
//        OUT_VEC (N % 4 == 0: vec4 stores).
// Params: MATMUL in src/engine/backends/webgpu/param-layouts.ts.

//#if OUT_VEC
@group(0) @binding(1) var<storage, read_write> OUT: array<vec4<f32>>;
//#else
@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
//#endif
//#if A_VEC_K || A_VEC_M
@group(0) @binding(2) var<storage, read> A: array<vec4<f32>>;
//#else
@group(0) @binding(2) var<storage, read> A: array<f32>;
//#endif
//#if B_VEC_N || B_VEC_K
@group(0) @binding(3) var<storage, read> B: array<vec4<f32>>;
//#else
@group(0) @binding(3) var<storage, read> B: array<f32>;
//#endif

// acc + a.x * b0 + a.y * b1 + a.z * b2 + a.w * b3: one out row segment over four k steps.
fn step4(acc: vec4<f32>, a: vec4<f32>, b0: vec4<f32>, b1: vec4<f32>, b2: vec4<f32>, b3: vec4<f32>) -> vec4<f32> {
  return fma(vec4<f32>(a.w), b3, fma(vec4<f32>(a.z), b2, fma(vec4<f32>(a.y), b1, fma(vec4<f32>(a.x), b0, acc))));
}

// acc + a * b: one out row segment over one k step.
fn step1(acc: vec4<f32>, a: f32, b: vec4<f32>) -> vec4<f32> {
  return fma(vec4<f32>(a), b, acc);
}

//#if !A_VEC_K && !A_VEC_M
// A(row, k..k+3) for a row starting at element `at`, k stride `s`.
fn rowA(at: u32, s: u32) -> vec4<f32> {
  return vec4<f32>(A[at], A[at + s], A[at + 2u * s], A[at + 3u * s]);
}

// A at one k for four rows starting at elements `rows` (+ `k`, the k offset).
fn gatherA(rows: vec4<u32>, k: u32) -> vec4<f32> {
  return vec4<f32>(A[rows.x + k], A[rows.y + k], A[rows.z + k], A[rows.w + k]);
}
//#endif

//#if !B_VEC_N && !B_VEC_K
// B at one k for four columns starting at elements `cols` (+ `k`, the k offset).
fn gatherB(cols: vec4<u32>, k: u32) -> vec4<f32> {
  return vec4<f32>(B[cols.x + k], B[cols.y + k], B[cols.z + k], B[cols.w + k]);
}
//#endif

// Stores one out row (columns col0..col0+7) starting at element `at`, within bounds.
fn storeRow(row: u32, col0: u32, M: u32, N: u32, at: u32, lo: vec4<f32>, hi: vec4<f32>) {
  if (row >= M) {
    return;
  }
//#if OUT_VEC
  OUT[at >> 2u] = lo;
  if (col0 + 4u < N) {
    OUT[(at >> 2u) + 1u] = hi;
  }
//#else
  for (var j = 0u; j < 4u; j++) {
    if (col0 + j < N) {
      OUT[at + j] = lo[j];
    }
    if (col0 + 4u + j < N) {
      OUT[at + 4u + j] = hi[j];
    }
  }
//#endif
}

@compute @workgroup_size(/*WGX*/, /*WGY*/)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let M = P(P_m);
  let N = P(P_n);
  let K = P(P_k);
  let col0 = gid.x * 8u;
//#if TM4
  let row0 = gid.y * 4u;
//#else
  let row0 = gid.y * 8u;
//#endif
  if (row0 >= M || col0 >= N) {
    return;
  }
  let batch = gid.z + P(P_batchBase);
  let aBase = P(P_aOffset) + batch * P(P_aBatchStride);
  let sam = P(P_aRowStride);
  let sak = P(P_aKStride);
  let bBase = P(P_bOffset) + batch * P(P_bBatchStride);
  let sbk = P(P_bKStride);
  let sbn = P(P_bColStride);
  let lanes = vec4<u32>(0u, 1u, 2u, 3u);
  // Element offsets of A(row, 0) for the tile's rows and B(0, col) for its columns, clamped.
  let aLo = vec4<u32>(aBase) + min(vec4<u32>(row0) + lanes, vec4<u32>(M - 1u)) * sam;
  let aHi = vec4<u32>(aBase) + min(vec4<u32>(row0 + 4u) + lanes, vec4<u32>(M - 1u)) * sam;
  let bLo = vec4<u32>(bBase) + min(vec4<u32>(col0) + lanes, vec4<u32>(N - 1u)) * sbn;
  let bHi = vec4<u32>(bBase) + min(vec4<u32>(col0 + 4u) + lanes, vec4<u32>(N - 1u)) * sbn;
  // Vector layouts load aligned blocks of four; the upper block of an edge tile is clamped
  // (M or N % 4 == 0, so it is either whole or entirely outside and never stored).
//#if A_VEC_M
  let rowHi = min(row0 + 4u, M - 4u);
//#endif
//#if B_VEC_N
  let colHi = min(col0 + 4u, N - 4u);
//#endif
  var acc0a = vec4<f32>();
  var acc0b = vec4<f32>();
  var acc1a = vec4<f32>();
  var acc1b = vec4<f32>();
  var acc2a = vec4<f32>();
  var acc2b = vec4<f32>();
  var acc3a = vec4<f32>();
  var acc3b = vec4<f32>();
//#if !TM4
  var acc4a = vec4<f32>();
  var acc4b = vec4<f32>();
  var acc5a = vec4<f32>();
  var acc5b = vec4<f32>();
  var acc6a = vec4<f32>();
  var acc6b = vec4<f32>();
  var acc7a = vec4<f32>();
  var acc7b = vec4<f32>();
//#endif
  var k = 0u;
  let K4 = K & ~3u;
  for (; k < K4; k += 4u) {
    // ai = A(row i, k..k+3).
//#if A_VEC_K
    let a0 = A[(aLo.x + k) >> 2u];
    let a1 = A[(aLo.y + k) >> 2u];
    let a2 = A[(aLo.z + k) >> 2u];
    let a3 = A[(aLo.w + k) >> 2u];
//#if !TM4
    let a4 = A[(aHi.x + k) >> 2u];
    let a5 = A[(aHi.y + k) >> 2u];
    let a6 = A[(aHi.z + k) >> 2u];
    let a7 = A[(aHi.w + k) >> 2u];
//#endif
//#elif A_VEC_M
    let atLo = aBase + k * sak + row0;
    let lo = transpose(mat4x4<f32>(A[atLo >> 2u], A[(atLo + sak) >> 2u], A[(atLo + 2u * sak) >> 2u], A[(atLo + 3u * sak) >> 2u]));
    let a0 = lo[0];
    let a1 = lo[1];
    let a2 = lo[2];
    let a3 = lo[3];
//#if !TM4
    let atHi = aBase + k * sak + rowHi;
    let hi = transpose(mat4x4<f32>(A[atHi >> 2u], A[(atHi + sak) >> 2u], A[(atHi + 2u * sak) >> 2u], A[(atHi + 3u * sak) >> 2u]));
    let a4 = hi[0];
    let a5 = hi[1];
    let a6 = hi[2];
    let a7 = hi[3];
//#endif
//#else
    let ak = k * sak;
    let a0 = rowA(aLo.x + ak, sak);
    let a1 = rowA(aLo.y + ak, sak);
    let a2 = rowA(aLo.z + ak, sak);
    let a3 = rowA(aLo.w + ak, sak);
//#if !TM4
    let a4 = rowA(aHi.x + ak, sak);
    let a5 = rowA(aHi.y + ak, sak);
    let a6 = rowA(aHi.z + ak, sak);
    let a7 = rowA(aHi.w + ak, sak);
//#endif
//#endif
    // bKa / bKb = B(k + K, columns col0..col0+3 / col0+4..col0+7).
//#if B_VEC_N
    let bt = bBase + k * sbk;
    let b0a = B[(bt + col0) >> 2u];
    let b0b = B[(bt + colHi) >> 2u];
    let b1a = B[(bt + sbk + col0) >> 2u];
    let b1b = B[(bt + sbk + colHi) >> 2u];
    let b2a = B[(bt + 2u * sbk + col0) >> 2u];
    let b2b = B[(bt + 2u * sbk + colHi) >> 2u];
    let b3a = B[(bt + 3u * sbk + col0) >> 2u];
    let b3b = B[(bt + 3u * sbk + colHi) >> 2u];
//#elif B_VEC_K
    let ba = transpose(mat4x4<f32>(B[(bLo.x + k) >> 2u], B[(bLo.y + k) >> 2u], B[(bLo.z + k) >> 2u], B[(bLo.w + k) >> 2u]));
    let bb = transpose(mat4x4<f32>(B[(bHi.x + k) >> 2u], B[(bHi.y + k) >> 2u], B[(bHi.z + k) >> 2u], B[(bHi.w + k) >> 2u]));
    let b0a = ba[0];
    let b0b = bb[0];
    let b1a = ba[1];
    let b1b = bb[1];
    let b2a = ba[2];
    let b2b = bb[2];
    let b3a = ba[3];
    let b3b = bb[3];
//#else
    let bk = k * sbk;
    let b0a = gatherB(bLo, bk);
    let b0b = gatherB(bHi, bk);
    let b1a = gatherB(bLo, bk + sbk);
    let b1b = gatherB(bHi, bk + sbk);
    let b2a = gatherB(bLo, bk + 2u * sbk);
    let b2b = gatherB(bHi, bk + 2u * sbk);
    let b3a = gatherB(bLo, bk + 3u * sbk);
    let b3b = gatherB(bHi, bk + 3u * sbk);
//#endif
    acc0a = step4(acc0a, a0, b0a, b1a, b2a, b3a);
    acc0b = step4(acc0b, a0, b0b, b1b, b2b, b3b);
    acc1a = step4(acc1a, a1, b0a, b1a, b2a, b3a);
    acc1b = step4(acc1b, a1, b0b, b1b, b2b, b3b);
    acc2a = step4(acc2a, a2, b0a, b1a, b2a, b3a);
    acc2b = step4(acc2b, a2, b0b, b1b, b2b, b3b);
    acc3a = step4(acc3a, a3, b0a, b1a, b2a, b3a);
    acc3b = step4(acc3b, a3, b0b, b1b, b2b, b3b);
//#if !TM4
    acc4a = step4(acc4a, a4, b0a, b1a, b2a, b3a);
    acc4b = step4(acc4b, a4, b0b, b1b, b2b, b3b);
    acc5a = step4(acc5a, a5, b0a, b1a, b2a, b3a);
    acc5b = step4(acc5b, a5, b0b, b1b, b2b, b3b);
    acc6a = step4(acc6a, a6, b0a, b1a, b2a, b3a);
    acc6b = step4(acc6b, a6, b0b, b1b, b2b, b3b);
    acc7a = step4(acc7a, a7, b0a, b1a, b2a, b3a);
    acc7b = step4(acc7b, a7, b0b, b1b, b2b, b3b);
//#endif
  }
//#if !A_VEC_K && !B_VEC_K
  // The K % 4 leftover steps (the vec4-along-k layouts require K % 4 == 0).
  for (; k < K; k++) {
//#if A_VEC_M
    let lo = A[(aBase + k * sak + row0) >> 2u];
//#if !TM4
    let hi = A[(aBase + k * sak + rowHi) >> 2u];
//#endif
//#else
    let lo = gatherA(aLo, k * sak);
//#if !TM4
    let hi = gatherA(aHi, k * sak);
//#endif
//#endif
//#if B_VEC_N
    let ba = B[(bBase + k * sbk + col0) >> 2u];
    let bb = B[(bBase + k * sbk + colHi) >> 2u];
//#else
    let ba = gatherB(bLo, k * sbk);
    let bb = gatherB(bHi, k * sbk);
//#endif
    acc0a = step1(acc0a, lo.x, ba);
    acc0b = step1(acc0b, lo.x, bb);
    acc1a = step1(acc1a, lo.y, ba);
    acc1b = step1(acc1b, lo.y, bb);
    acc2a = step1(acc2a, lo.z, ba);
    acc2b = step1(acc2b, lo.z, bb);
    acc3a = step1(acc3a, lo.w, ba);
    acc3b = step1(acc3b, lo.w, bb);
//#if !TM4
    acc4a = step1(acc4a, hi.x, ba);
    acc4b = step1(acc4b, hi.x, bb);
    acc5a = step1(acc5a, hi.y, ba);
    acc5b = step1(acc5b, hi.y, bb);
    acc6a = step1(acc6a, hi.z, ba);
    acc6b = step1(acc6b, hi.z, bb);
    acc7a = step1(acc7a, hi.w, ba);
    acc7b = step1(acc7b, hi.w, bb);
//#endif
  }
//#endif
  let at = batch * M * N + row0 * N + col0;
  storeRow(row0, col0, M, N, at, acc0a, acc0b);
  storeRow(row0 + 1u, col0, M, N, at + N, acc1a, acc1b);
  storeRow(row0 + 2u, col0, M, N, at + 2u * N, acc2a, acc2b);
  storeRow(row0 + 3u, col0, M, N, at + 3u * N, acc3a, acc3b);
//#if !TM4
  storeRow(row0 + 4u, col0, M, N, at + 4u * N, acc4a, acc4b);
  storeRow(row0 + 5u, col0, M, N, at + 5u * N, acc5a, acc5b);
  storeRow(row0 + 6u, col0, M, N, at + 6u * N, acc6a, acc6b);
  storeRow(row0 + 7u, col0, M, N, at + 7u * N, acc7a, acc7b);
//#endif
}
