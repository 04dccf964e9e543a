// Shared-memory tiled matmul family for real GPUs, out[b] = a[b] @ b[b]: a WGX x WGY workgroup
// computes a TILE_ROWS x TILE_COLS tile of out (R x C per invocation, in registers), staging
// TILE_ROWS x BK slices of A and BK x TILE_COLS of B in workgroup memory, so each global element
// is read once per tile instead of once per output it feeds. Invocation (x, y) owns rows
// y + r * WGY and columns x + c * WGX: in the inner loop neighbouring invocations read neighbouring
// words of the B tile (no bank conflicts) and those with the same y share A words (broadcasts),
// and the stores of a row are contiguous across x.
// The R*C statements are generated (matmul-tiled.ts).
// Placeholders: WGX, WGY, BK, TILE_ROWS, TILE_COLS, PITCH_A (TILE_ROWS + 1), PITCH_B
//               (TILE_COLS + 1), WORDS_A / WORDS_B (BK * pitch), LOADS_A / LOADS_B (elements each invocation stages per slice),
//               ACCUMULATORS, INNER, STORE.
// Flags: A_K_MAJOR (A contiguous along k: neighbouring invocations load neighbouring k),
//        B_N_MAJOR (B contiguous along n).
// Params: MATMUL in src/engine/backends/webgpu/param-layouts.ts.

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read> A: array<f32>;
@group(0) @binding(3) var<storage, read> B: array<f32>;

// Rows padded by one word: a column of the tile spreads over different memory banks.
var<workgroup> tileA: array<f32, /*WORDS_A*/>;
var<workgroup> tileB: array<f32, /*WORDS_B*/>;

@compute @workgroup_size(/*WGX*/, /*WGY*/)
fn main(
  @builtin(workgroup_id) wid: vec3<u32>,
  @builtin(local_invocation_id) lid: vec3<u32>,
  @builtin(local_invocation_index) li: u32,
) {
  let M = P(P_m);
  let N = P(P_n);
  let K = P(P_k);
  let batch = wid.z + P(P_batchBase);
  let aBase = P(P_aOffset) + batch * P(P_aBatchStride);
  let sam = P(P_aRowStride);
  let sak = P(P_aKStride);
  let bBase = P(P_bOffset) + batch * P(P_bBatchStride);
  let sbk = P(P_bKStride);
  let sbn = P(P_bColStride);
  let tileRow = wid.y * /*TILE_ROWS*/u;
  let tileCol = wid.x * /*TILE_COLS*/u;
  let invocations = /*WGX*/u * /*WGY*/u;
/*ACCUMULATORS*/
  for (var k0 = 0u; k0 < K; k0 += /*BK*/u) {
    for (var q = 0u; q < /*LOADS_A*/u; q++) {
      let e = li + q * invocations;
//#if A_K_MAJOR
      let m = e / /*BK*/u;
      let kk = e % /*BK*/u;
//#else
      let kk = e / /*TILE_ROWS*/u;
      let m = e % /*TILE_ROWS*/u;
//#endif
      let row = tileRow + m;
      let k = k0 + kk;
      var v = 0.0;
      if (row < M && k < K) {
        v = A[aBase + row * sam + k * sak];
      }
      tileA[kk * /*PITCH_A*/u + m] = v;
    }
    for (var q = 0u; q < /*LOADS_B*/u; q++) {
      let e = li + q * invocations;
//#if B_N_MAJOR
      let kk = e / /*TILE_COLS*/u;
      let n = e % /*TILE_COLS*/u;
//#else
      let n = e / /*BK*/u;
      let kk = e % /*BK*/u;
//#endif
      let col = tileCol + n;
      let k = k0 + kk;
      var v = 0.0;
      if (col < N && k < K) {
        v = B[bBase + k * sbk + col * sbn];
      }
      tileB[kk * /*PITCH_B*/u + n] = v;
    }
    workgroupBarrier();
    for (var kk = 0u; kk < /*BK*/u; kk++) {
      let ai = kk * /*PITCH_A*/u + lid.y;
      let bi = kk * /*PITCH_B*/u + lid.x;
/*INNER*/
    }
    workgroupBarrier();
  }
  let outBase = batch * M * N;
/*STORE*/
}
