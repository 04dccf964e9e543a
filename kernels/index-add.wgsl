// Scatter-add of rows (embedding backward): out[index[i], d] += values[i, d], one invocation per
// element of values, into an output the caller zeroed first. Rows that share an index collide, so
// each add is an atomic compare-and-swap loop on the f32's bits (WGSL has no float atomics). That
// keeps the work O(N * D) with no sort; the price is that duplicate rows are summed in an
// unspecified order (float results may differ in the last bit between runs).
// Flags: INT (int32 values: a plain atomicAdd).
// Params: INDEX_ROWS in src/engine/backends/webgpu/param-layouts.ts.

//#if INT
@group(0) @binding(1) var<storage, read_write> OUT: array<atomic<i32>>;
@group(0) @binding(2) var<storage, read> VALUES: array<i32>;
//#else
@group(0) @binding(1) var<storage, read_write> OUT: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read> VALUES: array<f32>;
//#endif
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
  if (row < 0 || u32(row) >= P(P_tableRows)) {
    return;
  }
  let value = VALUES[P(P_offset) + n * P(P_rowStride) + d * P(P_colStride)];
  let at = u32(row) * D + d;
//#if INT
  atomicAdd(&OUT[at], value);
//#else
  var old = atomicLoad(&OUT[at]);
  loop {
    let sum = bitcast<u32>(bitcast<f32>(old) + value);
    let result = atomicCompareExchangeWeak(&OUT[at], old, sum);
    if (result.exchanged) {
      break;
    }
    old = result.old_value;
  }
//#endif
}
