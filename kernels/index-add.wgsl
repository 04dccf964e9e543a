// Scatter-add of rows (embedding backward): out[index[i], d] += values[i, d], one invocation per
// element of values, into an output the caller zeroed first. Rows that share an index collide, so
// each add is an atomic compare-and-swap loop on the f32's bits (WGSL has no float atomics). That
// keeps the work O(N * D) with no sort; the price is that duplicate rows are summed in an
// unspecified order (float results may differ in the last bit between runs).
// Flags: INT (int32 values: a plain atomicAdd).
// Params: 0 N | 1 D | 2 values offset | 3 values row stride | 4 values column stride |
//         5 index offset | 6 index stride | 7 V (output rows)

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
  let D = P(1u);
  if (i >= P(0u) * D) {
    return;
  }
  let n = i / D;
  let d = i - n * D;
  let row = INDEX[P(5u) + n * P(6u)];
  if (row < 0 || u32(row) >= P(7u)) {
    return;
  }
  let value = VALUES[P(2u) + n * P(3u) + d * P(4u)];
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
