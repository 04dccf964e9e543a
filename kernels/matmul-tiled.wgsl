// Shared-memory tiled matmul for real GPUs, out[b] = a[b] @ b[b]: a 16x16 workgroup computes a
// 64x64 tile of out (4x4 per invocation, in registers), staging 64x16 slices of A and 16x64 of B
// in workgroup memory so each global element is read once per tile instead of 64 times.
// Flags: A_K_MAJOR (A contiguous along k: neighbouring invocations load neighbouring k),
//        B_N_MAJOR (B contiguous along n).
// Params: MATMUL in src/engine/backends/webgpu/param-layouts.ts.

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read> A: array<f32>;
@group(0) @binding(3) var<storage, read> B: array<f32>;

// Rows of 65: the padding spreads a column of the tile over different memory banks.
const PITCH = 65u;
var<workgroup> tileA: array<f32, 1040>;
var<workgroup> tileB: array<f32, 1040>;

@compute @workgroup_size(16, 16)
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
  let tileRow = wid.y * 64u;
  let tileCol = wid.x * 64u;
  var acc = mat4x4<f32>();
  for (var k0 = 0u; k0 < K; k0 += 16u) {
    for (var q = 0u; q < 4u; q++) {
      let e = li + q * 256u;
//#if A_K_MAJOR
      let m = e / 16u;
      let kk = e % 16u;
//#else
      let kk = e / 64u;
      let m = e % 64u;
//#endif
      let row = tileRow + m;
      let k = k0 + kk;
      var v = 0.0;
      if (row < M && k < K) {
        v = A[aBase + row * sam + k * sak];
      }
      tileA[kk * PITCH + m] = v;
    }
    for (var q = 0u; q < 4u; q++) {
      let e = li + q * 256u;
//#if B_N_MAJOR
      let kk = e / 64u;
      let n = e % 64u;
//#else
      let n = e / 16u;
      let kk = e % 16u;
//#endif
      let col = tileCol + n;
      let k = k0 + kk;
      var v = 0.0;
      if (col < N && k < K) {
        v = B[bBase + k * sbk + col * sbn];
      }
      tileB[kk * PITCH + n] = v;
    }
    workgroupBarrier();
    for (var kk = 0u; kk < 16u; kk++) {
      let ai = kk * PITCH + lid.y * 4u;
      let bi = kk * PITCH + lid.x * 4u;
      let a = vec4<f32>(tileA[ai], tileA[ai + 1u], tileA[ai + 2u], tileA[ai + 3u]);
      let b = vec4<f32>(tileB[bi], tileB[bi + 1u], tileB[bi + 2u], tileB[bi + 3u]);
      acc += mat4x4<f32>(b * a.x, b * a.y, b * a.z, b * a.w);
    }
    workgroupBarrier();
  }
  let row0 = tileRow + lid.y * 4u;
  let col0 = tileCol + lid.x * 4u;
  let outBase = batch * M * N;
  for (var i = 0u; i < 4u; i++) {
    let row = row0 + i;
    if (row < M) {
      let v = acc[i];
      for (var j = 0u; j < 4u; j++) {
        if (col0 + j < N) {
          OUT[outBase + row * N + col0 + j] = v[j];
        }
      }
    }
  }
}
