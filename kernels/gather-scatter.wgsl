// Per-row column pick and its inverse, for cross-entropy on class indices.
// GATHER (default): out[r] = x[r, index[r]], one invocation per row.
// SCATTER: out[r, c] = c == index[r] ? values[r] : 0, one invocation per output element.
// Out-of-range indices read or write 0 (a GPU cannot throw).
// Placeholders: T (f32 | i32).
// Params: 0 rows | 1 cols | 2 x (or values) offset | 3 x row stride (values stride) |
//         4 x column stride | 5 index offset | 6 index stride

@group(0) @binding(1) var<storage, read_write> OUT: array</*T*/>;
@group(0) @binding(2) var<storage, read> X: array</*T*/>;
@group(0) @binding(3) var<storage, read> INDEX: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  let cols = P(1u);
//#if SCATTER
  if (i >= P(0u) * cols) {
    return;
  }
  let row = i / cols;
  let col = i - row * cols;
  let picked = INDEX[P(5u) + row * P(6u)];
  var v = /*T*/(0);
  if (picked == i32(col)) {
    v = X[P(2u) + row * P(3u)];
  }
  OUT[i] = v;
//#else
  if (i >= P(0u)) {
    return;
  }
  let picked = INDEX[P(5u) + i * P(6u)];
  var v = /*T*/(0);
  if (picked >= 0 && u32(picked) < cols) {
    v = X[P(2u) + i * P(3u) + u32(picked) * P(4u)];
  }
  OUT[i] = v;
//#endif
}
