// Sorts each row of a strided 2-D view [rows, cols]: the values and their int32 column indices,
// into contiguous [rows, cols] outputs. A bitonic network over the row padded to a power of two
// (`padded`), in its form where every comparison puts the earlier element first (each stage's
// first step compares mirror images within a block instead of alternating directions), so the
// padding, which sorts after everything, never moves: pairs reaching past the row are skipped and
// the padding is never stored. Order: ascending, or DESCENDING; NaN after (before, descending)
// every number as in PyTorch; ties by column, so the sort is stable.
// Default: one workgroup per row, the row in shared memory (rows up to 1024 elements).
// INIT + STEP (longer rows): INIT copies the rows and their column numbers into the outputs, then
// one STEP dispatch per step of the network (params `block`, `span`) works in place.
// Flags: DESCENDING, INIT, STEP, INT (int32 values: no NaN). Placeholders: T (f32 | i32), SHARED.
// Params: SORT in src/engine/backends/webgpu/param-layouts.ts.

@group(0) @binding(1) var<storage, read_write> VALUES: array</*T*/>;
@group(0) @binding(2) var<storage, read_write> INDICES: array<i32>;
//#if !STEP
@group(0) @binding(3) var<storage, read> X: array</*T*/>;
//#endif

// By the bits: compilers may fold `a != a` to false.
fn isNan(a: /*T*/) -> bool {
//#if INT
  return false;
//#else
  return (bitcast<u32>(a) & 0x7fffffffu) > 0x7f800000u;
//#endif
}

// Whether (a, ai) goes before (b, bi).
fn before(a: /*T*/, ai: i32, b: /*T*/, bi: i32) -> bool {
  let aNan = isNan(a);
  let bNan = isNan(b);
  if (aNan != bNan) {
//#if DESCENDING
    return aNan;
//#else
    return bNan;
//#endif
  }
  if (!aNan && a != b) {
//#if DESCENDING
    return a > b;
//#else
    return a < b;
//#endif
  }
  return ai < bi;
}

// The pair `p` of a step: the lower position and its partner within a row.
fn pairOf(p: u32, block: u32, span: u32) -> vec2<u32> {
  if (span * 2u == block) {
    // The stage's first step: position t of a block against its mirror image.
    let start = (p / span) * block;
    let t = p % span;
    return vec2<u32>(start + t, start + block - 1u - t);
  }
  let i = (p / span) * span * 2u + p % span;
  return vec2<u32>(i, i + span);
}

//#if INIT
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  let cols = P(P_cols);
  if (i >= P(P_rows) * cols) {
    return;
  }
  let r = i / cols;
  let c = i - r * cols;
  VALUES[i] = X[P(P_offset) + r * P(P_rowStride) + c * P(P_colStride)];
  INDICES[i] = i32(c);
}
//#elif STEP
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  let half = P(P_padded) / 2u;
  if (i >= P(P_rows) * half) {
    return;
  }
  let r = i / half;
  let pair = pairOf(i - r * half, P(P_block), P(P_span));
  let cols = P(P_cols);
  if (pair.y >= cols) {
    return;
  }
  let lo = r * cols + pair.x;
  let hi = r * cols + pair.y;
  let a = VALUES[lo];
  let b = VALUES[hi];
  let ai = INDICES[lo];
  let bi = INDICES[hi];
  if (before(b, bi, a, ai)) {
    VALUES[lo] = b;
    VALUES[hi] = a;
    INDICES[lo] = bi;
    INDICES[hi] = ai;
  }
}
//#else
// The padded row length this variant holds (a power of two up to 1024): shared memory per workgroup
// is what the row needs, not the largest row's.
const SHARED_MAX = /*SHARED*/u;

var<workgroup> values: array</*T*/, SHARED_MAX>;
var<workgroup> indices: array<i32, SHARED_MAX>;

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
  for (var c = lid; c < cols; c += 64u) {
    values[c] = X[base + c * P(P_colStride)];
    indices[c] = i32(c);
  }
  let padded = P(P_padded);
  let half = padded / 2u;
  for (var block = 2u; block <= padded; block <<= 1u) {
    for (var span = block / 2u; span > 0u; span >>= 1u) {
      workgroupBarrier();
      for (var p = lid; p < half; p += 64u) {
        let pair = pairOf(p, block, span);
        if (pair.y < cols) {
          let a = values[pair.x];
          let b = values[pair.y];
          let ai = indices[pair.x];
          let bi = indices[pair.y];
          if (before(b, bi, a, ai)) {
            values[pair.x] = b;
            values[pair.y] = a;
            indices[pair.x] = bi;
            indices[pair.y] = ai;
          }
        }
      }
    }
  }
  workgroupBarrier();
  for (var c = lid; c < cols; c += 64u) {
    VALUES[row * cols + c] = values[c];
    INDICES[row * cols + c] = indices[c];
  }
}
//#endif
