// Register-blocked matmul family, out[b] = a[b] @ b[b] (+ bias, relu): each invocation computes
// R rows x C columns of out as R*C scalar accumulators, with no workgroup memory and no barriers.
// Columns are interleaved across the workgroup (invocation x owns columns col0 + c * WGX), so the
// four invocations a CPU emulation runs as one SIMD group read four neighbouring B elements.
// With QUAD (subgroups), lane j of each quad loads A(row, k + j) and the four values reach every
// lane by quadBroadcast (q members) or quad swaps (x members, whose lanes then take the four k
// steps in different orders): one load of A per four k steps instead of four (loads are what CPU
// emulations pay for; every lane of a quad shares its rows because WGX % 4 == 0). Edge tiles clamp
// their load indices to the last row/column (x members: to their own lane's last column, see
// edgeColumn), so the K loop has no branches, and their stores clamp too: an element past the edge
// rewrites its clamped twin with the identical value.
// The R*C statements are generated (matmul-blocked.ts): JITs of CPU emulations keep only
// straight-line code in registers.
// Placeholders: WGX, WGY workgroup shape; TILE_COLS (WGX * C), TILE_ROWS (WGY * R), ROWS (R);
//               SETUP, BODY, TAIL, STORE generated statements.
// With VEC4, A is read as vec4s along k and B as vec4s along n (each invocation owns groups of
// four adjacent columns, the groups interleaved across the workgroup), and every accumulator is a
// vec4: a quarter of the loads and four independent FMA chains each. The caller guarantees
// 4-aligned, contiguous operands and K % 4 == 0 (vec4Fits in matmul-blocked.ts).
// Flags: QUAD (subgroups), VEC4, BIAS (out += bias[col]), RELU, NCHW (row = n * P + p is written to
//        out[n, col, p]: a convolution's output layout; P in P_pixels; p may be a window's pixel,
//        see rowStart), A_GATHER / B_GATHER
//        (that operand's element (i, k) is at base + rowTable[i] + kTable[k]: an image read as
//        its im2col columns without writing them).
// Placeholders also: GATHER_BINDING.
// Params: MATMUL in src/engine/backends/webgpu/param-layouts.ts.

//#if QUAD
enable subgroups;
//#endif

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
//#if VEC4
@group(0) @binding(2) var<storage, read> A: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> B: array<vec4<f32>>;
//#else
@group(0) @binding(2) var<storage, read> A: array<f32>;
@group(0) @binding(3) var<storage, read> B: array<f32>;
//#endif
//#if BIAS
@group(0) @binding(4) var<storage, read> BIAS: array<f32>;
//#endif
//#if A_GATHER || B_GATHER
// Offset tables of the gathered operand: P_tableOuter indexes its row (A) or column (B) offsets, P_tableK
// its offsets per k step (u32 arithmetic wraps, so negative offsets are stored as their bits).
@group(0) @binding(/*GATHER_BINDING*/) var<storage, read> GATHER: array<u32>;
//#endif

// Index of out(row, column 0), and the distance between columns: divisions per row (the NCHW
// layout), not per element. Rows may cover a window of each image's pixels (a rectangle of
// P_windowPixels pixels, P_windowWidth wide, from pixel P_windowOrigin of rows P_imageWidth wide):
// a padded convolution split where its windows reach the border; the whole image is the window
// of width P_pixels.
fn rowStart(batch: u32, row: u32, M: u32, N: u32) -> u32 {
//#if NCHW
  let pixels = P(P_pixels);
  let perImage = P(P_windowPixels);
  let image = row / perImage;
  let q = row - image * perImage;
  let y = q / P(P_windowWidth);
  let pixel = P(P_windowOrigin) + y * P(P_imageWidth) + (q - y * P(P_windowWidth));
  return batch * M * N + image * N * pixels + pixel;
//#else
  return batch * M * N + row * N;
//#endif
}

// The column an invocation of an x… member (quad swaps) loads and stores in place of a column
// past the matrix: the last one of the same lane of its quad (col % 4 == lid.x % 4), whose sum
// takes its steps in the same order, so the two stores write identical values. Needs N >= 4.
fn edgeColumn(col: u32, N: u32) -> u32 {
  return select(col, col - ((col - N + 4u) & ~3u), col >= N);
}

// The epilogue of one output element of column `col`.
fn finish(col: u32, value: f32) -> f32 {
  var v = value;
//#if BIAS
  v += BIAS[P(P_biasOffset) + col];
//#endif
//#if RELU
  v = max(v, 0.0);
//#endif
  return v;
}

@compute @workgroup_size(/*WGX*/, /*WGY*/)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let M = P(P_m);
  let N = P(P_n);
  let K = P(P_k);
  let batch = wid.z + P(P_batchBase);
  let sak = P(P_aKStride);
  let sbk = P(P_bKStride);
//#if VEC4
  let sbk4 = sbk >> 2u;
//#endif
  let col0 = wid.x * /*TILE_COLS*/u + lid.x;
  let row0 = wid.y * /*TILE_ROWS*/u + lid.y * /*ROWS*/u;
/*ACCUMULATORS*/
  let summed = P(P_summed);
  // Workgroup z sums products batch * summed ... + summed - 1 (the last piece may be short).
  for (var s = 0u; s < summed; s++) {
  let product = batch * summed + s;
  if (product >= P(P_total)) {
    break;
  }
  let aBase = P(P_aOffset) + product * P(P_aBatchStride);
  let bBase = P(P_bOffset) + product * P(P_bBatchStride);
/*SETUP*/
  var k = 0u;
//#if QUAD
  let lane = lid.x & 3u;
  let K4 = K & ~3u;
  for (; k < K4; k += 4u) {
/*BODY*/
  }
//#else
  let K4 = K & ~3u;
  for (; k < K4; k += 4u) {
/*BODY*/
  }
//#endif
  for (; k < K; k++) {
/*TAIL*/
  }
  }
//#if NCHW
  let colStep = P(P_pixels);
//#else
  let colStep = 1u;
//#endif
/*STORE*/
}
