// Row-wise softmax or log-softmax of a strided 2-D view [rows, cols] into a contiguous output:
// max, then sum of exp(x - max), then the normalised row (three reads of x, no atomics).
// WORKGROUP: 64 invocations per row with shared-memory trees (long rows); otherwise one
// invocation per row (short rows, where barriers would cost more than the work).
// Flags: LOG (log-softmax), WORKGROUP.
// Params: SOFTMAX in src/engine/backends/webgpu/param-layouts.ts.

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read> X: array<f32>;

fn writeRow(row: u32, base: u32, first: u32, step: u32, rowMax: f32, rowSum: f32) {
  let cols = P(P_cols);
  let sc = P(P_colStride);
  let out = row * cols;
//#if LOG
  let shift = rowMax + log(rowSum);
  for (var c = first; c < cols; c += step) {
    OUT[out + c] = X[base + c * sc] - shift;
  }
//#else
  let scale = 1.0 / rowSum;
  for (var c = first; c < cols; c += step) {
    OUT[out + c] = exp(X[base + c * sc] - rowMax) * scale;
  }
//#endif
}

//#if WORKGROUP
var<workgroup> partial: array<f32, 64>;

// Tree-combines partial[] into partial[0] (max when takeMax, else sum), leaving it for all to read.
fn combine(lid: u32, takeMax: bool) -> f32 {
  for (var s = 32u; s > 0u; s >>= 1u) {
    workgroupBarrier();
    if (lid < s) {
      let other = partial[lid + s];
      partial[lid] = select(partial[lid] + other, max(partial[lid], other), takeMax);
    }
  }
  workgroupBarrier();
  let result = partial[0];
  // Nobody may overwrite partial[0] for the next tree before everyone has read it.
  workgroupBarrier();
  return result;
}

@compute @workgroup_size(64)
fn main(
  @builtin(workgroup_id) wid: vec3<u32>,
  @builtin(num_workgroups) nwg: vec3<u32>,
  @builtin(local_invocation_index) lid: u32,
) {
  let row = flatGroup(wid, nwg);
  if (row >= P(P_rows)) {
    return;
  }
  let cols = P(P_cols);
  let sc = P(P_colStride);
  let base = P(P_offset) + row * P(P_rowStride);
  var m = -infinity();
  for (var c = lid; c < cols; c += 64u) {
    m = max(m, X[base + c * sc]);
  }
  partial[lid] = m;
  let rowMax = combine(lid, true);
  var s = 0.0;
  for (var c = lid; c < cols; c += 64u) {
    s += exp(X[base + c * sc] - rowMax);
  }
  partial[lid] = s;
  let rowSum = combine(lid, false);
  writeRow(row, base, lid, 64u, rowMax, rowSum);
}
//#else
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = flatId(gid, nwg);
  if (row >= P(P_rows)) {
    return;
  }
  let cols = P(P_cols);
  let sc = P(P_colStride);
  let base = P(P_offset) + row * P(P_rowStride);
  var m = -infinity();
  for (var c = 0u; c < cols; c++) {
    m = max(m, X[base + c * sc]);
  }
  var s = 0.0;
  for (var c = 0u; c < cols; c++) {
    s += exp(X[base + c * sc] - m);
  }
  writeRow(row, base, 0u, 1u, m, s);
}
//#endif
