// Row lookup (embedding forward): out[i, d] = table[index[i], d], one invocation per output
// element. Out-of-range indices give rows of 0.
// Placeholders: T (f32 | i32).
// Params: 0 N (index length) | 1 D | 2 table offset | 3 table row stride | 4 table column stride |
//         5 index offset | 6 index stride | 7 V (table rows)

@group(0) @binding(1) var<storage, read_write> OUT: array</*T*/>;
@group(0) @binding(2) var<storage, read> TABLE: array</*T*/>;
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
  var v = /*T*/(0);
  if (row >= 0 && u32(row) < P(7u)) {
    v = TABLE[P(2u) + u32(row) * P(3u) + d * P(4u)];
  }
  OUT[i] = v;
}
