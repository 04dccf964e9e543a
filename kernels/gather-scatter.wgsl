// Per-row column pick and its inverse, for cross-entropy on class indices.
// GATHER (default): out[r] = x[r, index[r]], one invocation per row.
// SCATTER: out[r, c] = c == index[r] ? values[r] : 0, one invocation per output element.
// Out-of-range indices read or write 0 (a GPU cannot throw).
// Placeholders: T (f32 | i32).
// Params: GATHER_SCATTER in src/engine/backends/webgpu/param-layouts.ts.

@group(0) @binding(1) var<storage, read_write> OUT: array</*T*/>;
@group(0) @binding(2) var<storage, read> X: array</*T*/>;
@group(0) @binding(3) var<storage, read> INDEX: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  let cols = P(P_cols);
//#if SCATTER
  if (i >= P(P_rows) * cols) {
    return;
  }
  let row = i / cols;
  let col = i - row * cols;
  let picked = INDEX[P(P_indexOffset) + row * P(P_indexStride)];
  var v = /*T*/(0);
  if (picked == i32(col)) {
    v = X[P(P_xOffset) + row * P(P_xRowStride)];
  }
  OUT[i] = v;
//#else
  if (i >= P(P_rows)) {
    return;
  }
  let picked = INDEX[P(P_indexOffset) + i * P(P_indexStride)];
  var v = /*T*/(0);
  if (picked >= 0 && u32(picked) < cols) {
    v = X[P(P_xOffset) + i * P(P_xRowStride) + u32(picked) * P(P_xColStride)];
  }
  OUT[i] = v;
//#endif
}
