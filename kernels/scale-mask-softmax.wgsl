// Attention weights in one pass per row: y = softmax(scale·s + m) along the last dim, and its
// gradient ds = scale · y ⊙ (g − Σ(g⊙y)). One invocation per row of the contiguous [rows, cols]
// scores (rows = (a·B + b)·L + l). The mask m is read through 4-D strides over [A, B, L, cols]
// (0 for broadcast dims): MASK_FLOAT adds it, MASK_BOOL (int32 0/1) adds MASKED where it is 0,
// CAUSAL adds MASKED where col > l. MASKED is attention.ts's finite -∞ (-1e30), so a fully masked
// row gives the same uniform row as the composition did.
// Flags: MASK_FLOAT, MASK_BOOL, CAUSAL, BACKWARD.
// Params: SCALE_MASK_SOFTMAX in src/engine/backends/webgpu/param-layouts.ts.

const MASKED: f32 = -1e30;

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
//#if BACKWARD
@group(0) @binding(2) var<storage, read> Y: array<f32>;
@group(0) @binding(3) var<storage, read> G: array<f32>;
//#else
@group(0) @binding(2) var<storage, read> X: array<f32>;
//#endif
//#if MASK_FLOAT
@group(0) @binding(3) var<storage, read> M: array<f32>;
//#endif
//#if MASK_BOOL
@group(0) @binding(3) var<storage, read> M: array<i32>;
//#endif

//#if BACKWARD
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = flatId(gid, nwg);
  if (row >= P(P_rows)) {
    return;
  }
  let cols = P(P_cols);
  let y = u32(PI(P_xOffset)) + row * cols;
  let g = u32(PI(P_gOffset)) + row * cols;
  let o = u32(PI(P_outOffset)) + row * cols;
  var dot = 0.0;
  for (var c = 0u; c < cols; c++) {
    dot += G[g + c] * Y[y + c];
  }
  let scale = PF(P_scale);
  for (var c = 0u; c < cols; c++) {
    OUT[o + c] = scale * (Y[y + c] * (G[g + c] - dot));
  }
}
//#else
// scale·s + m for column c of the row at x whose mask row starts at mBase (l: the row's query).
fn score(x: u32, c: u32, mBase: i32, l: u32) -> f32 {
  var v = X[x + c] * PF(P_scale);
//#if MASK_FLOAT
  v += M[u32(mBase + i32(c) * PI(P_mStrideC))];
//#endif
//#if MASK_BOOL
  v += select(MASKED, 0.0, M[u32(mBase + i32(c) * PI(P_mStrideC))] != 0);
//#endif
//#if CAUSAL
  v += select(0.0, MASKED, c > l);
//#endif
  return v;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = flatId(gid, nwg);
  if (row >= P(P_rows)) {
    return;
  }
  let cols = P(P_cols);
  let L = P(P_queries);
  let l = row % L;
  let ab = row / L;
  let b = ab % P(P_inner);
  let a = ab / P(P_inner);
  let mBase = PI(P_mOffset) + i32(a) * PI(P_mStrideA) + i32(b) * PI(P_mStrideB) +
    i32(l) * PI(P_mStrideL);
  let x = u32(PI(P_xOffset)) + row * cols;
  let o = u32(PI(P_outOffset)) + row * cols;
  var m = -infinity();
  for (var c = 0u; c < cols; c++) {
    m = max(m, score(x, c, mBase, l));
  }
  var s = 0.0;
  for (var c = 0u; c < cols; c++) {
    s += exp(score(x, c, mBase, l) - m);
  }
  let inv = 1.0 / s;
  for (var c = 0u; c < cols; c++) {
    OUT[o + c] = exp(score(x, c, mBase, l) - m) * inv;
  }
}
//#endif
