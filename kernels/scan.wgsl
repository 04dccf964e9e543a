// Inclusive scans along the last dim of a strided 2-D view [rows, cols] into a contiguous output:
// running sums (cumsum) or, with PROD, running products (cumprod); REVERSE scans from the row's
// end (a cumsum's gradient is the reverse cumsum of its output's gradient).
// THREAD: one invocation per row, a serial loop (short rows, where barriers cost more than the
// work). Otherwise one workgroup of 64 per row: the row in chunks of 64, each scanned in shared
// memory (Hillis-Steele) and offset by the running total of the chunks before it.
// Flags: PROD, REVERSE, THREAD. Placeholders: T (f32 | i32).
// Params: SCAN in src/engine/backends/webgpu/param-layouts.ts.

@group(0) @binding(1) var<storage, read_write> OUT: array</*T*/>;
@group(0) @binding(2) var<storage, read> X: array</*T*/>;

fn combine(a: /*T*/, b: /*T*/) -> /*T*/ {
//#if PROD
  return a * b;
//#else
  return a + b;
//#endif
}

fn identity() -> /*T*/ {
//#if PROD
  return /*T*/(1);
//#else
  return /*T*/(0);
//#endif
}

// The column of the c-th element in scan order.
fn column(c: u32) -> u32 {
//#if REVERSE
  return P(P_cols) - 1u - c;
//#else
  return c;
//#endif
}

//#if THREAD
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = flatId(gid, nwg);
  if (row >= P(P_rows)) {
    return;
  }
  let cols = P(P_cols);
  let base = P(P_offset) + row * P(P_rowStride);
  var acc = identity();
  for (var c = 0u; c < cols; c++) {
    let col = column(c);
    acc = combine(acc, X[base + col * P(P_colStride)]);
    OUT[row * cols + col] = acc;
  }
}
//#else
var<workgroup> lane: array</*T*/, 64>;

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
  let base = P(P_offset) + row * P(P_rowStride);
  var carry = identity();
  for (var start = 0u; start < cols; start += 64u) {
    let c = start + lid;
    var v = identity();
    if (c < cols) {
      v = X[base + column(c) * P(P_colStride)];
    }
    lane[lid] = v;
    for (var s = 1u; s < 64u; s <<= 1u) {
      workgroupBarrier();
      var before = identity();
      if (lid >= s) {
        before = lane[lid - s];
      }
      workgroupBarrier();
      v = combine(before, v);
      lane[lid] = v;
    }
    workgroupBarrier();
    if (c < cols) {
      OUT[row * cols + column(c)] = combine(carry, v);
    }
    carry = combine(carry, lane[63]);
    // Nobody may start the next chunk's writes before everyone has read lane[63].
    workgroupBarrier();
  }
}
//#endif
