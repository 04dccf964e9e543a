// Row lookup (embedding forward): out[i, d] = table[index[i], d], one invocation per output
// element. Out-of-range indices give rows of 0.
// Placeholders: T (f32 | i32).
// Params: INDEX_ROWS in src/engine/backends/webgpu/param-layouts.ts.

@group(0) @binding(1) var<storage, read_write> OUT: array</*T*/>;
@group(0) @binding(2) var<storage, read> TABLE: array</*T*/>;
@group(0) @binding(3) var<storage, read> INDEX: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  let D = P(P_width);
  if (i >= P(P_n) * D) {
    return;
  }
  let n = i / D;
  let d = i - n * D;
  let row = INDEX[P(P_indexOffset) + n * P(P_indexStride)];
  var v = /*T*/(0);
  if (row >= 0 && u32(row) < P(P_tableRows)) {
    v = TABLE[P(P_offset) + u32(row) * P(P_rowStride) + d * P(P_colStride)];
  }
  OUT[i] = v;
}
