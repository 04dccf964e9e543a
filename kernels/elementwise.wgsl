// Element-wise map: OUT[i] = EXPR(a, b) over strided inputs already broadcast to the output's
// shape (stride 0 on broadcast dimensions). The output is contiguous, except with OUT_STRIDED
// (assign: copy into a strided view).
// Placeholders: A_T, B_T, OUT_T storage types (f32 | i32); C compute type; EXPR the op, an
// expression of `a` and `b` of type C; RANK dimensions after merging (1..6).
// Flags: HAS_B (second tensor input), SCALAR_B (b is the scalar in params), SCALAR_FIRST (the
// scalar is `a` and the tensor `b`), RANK1 (one strided run, no index arithmetic),
// OUT_STRIDED (output strides and offset in params),
// VEC4 (contiguous fast path: four elements per invocation through vec4 loads and stores; each
// tensor input is contiguous with a 4-aligned offset, or a broadcast scalar: A_SPLAT / B_SPLAT).
// Params: ELEMENTWISE in src/engine/backends/webgpu/param-layouts.ts.

//#if VEC4
@group(0) @binding(1) var<storage, read_write> OUT: array<vec4</*OUT_T*/>>;
//#else
@group(0) @binding(1) var<storage, read_write> OUT: array</*OUT_T*/>;
//#endif
//#if VEC4 && !A_SPLAT
@group(0) @binding(2) var<storage, read> A: array<vec4</*A_T*/>>;
//#else
@group(0) @binding(2) var<storage, read> A: array</*A_T*/>;
//#endif
//#if HAS_B && VEC4 && !B_SPLAT
@group(0) @binding(3) var<storage, read> B: array<vec4</*B_T*/>>;
//#elif HAS_B
@group(0) @binding(3) var<storage, read> B: array</*B_T*/>;
//#endif

// powSafe, tanhSafe and sigmoid are in common.wgsl (the fused kernel uses them too).

// The op on one element (unary ops ignore b).
fn op(a: /*C*/, b: /*C*/) -> /*OUT_T*/ {
  return /*OUT_T*/(/*EXPR*/);
}

//#if VEC4
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let q = flatId(gid, nwg);
  let n = P(P_n);
  if (q * 4u >= n) {
    return;
  }
//#if A_SPLAT
  let x = vec4</*C*/>(/*C*/(A[P(P_aOffset)]));
//#else
  let x = vec4</*C*/>(A[(P(P_aOffset) >> 2u) + q]);
//#endif
//#if HAS_B && B_SPLAT
  let a = x;
  let b = vec4</*C*/>(/*C*/(B[P(P_bOffset)]));
//#elif HAS_B
  let a = x;
  let b = vec4</*C*/>(B[(P(P_bOffset) >> 2u) + q]);
//#elif SCALAR_FIRST
  let a = vec4</*C*/>(bitcast</*C*/>(P(P_scalar)));
  let b = x;
//#elif SCALAR_B
  let a = x;
  let b = vec4</*C*/>(bitcast</*C*/>(P(P_scalar)));
//#else
  let a = x;
  let b = x;
//#endif
  let result = vec4</*OUT_T*/>(op(a.x, b.x), op(a.y, b.y), op(a.z, b.z), op(a.w, b.w));
  if (q * 4u + 4u <= n) {
    OUT[q] = result;
    return;
  }
  // The last, partial vector: keep the elements past the end as they were.
  var merged = OUT[q];
  for (var j = 0u; q * 4u + j < n; j++) {
    merged[j] = result[j];
  }
  OUT[q] = merged;
}
//#else
// Element offsets (a, b, out) of flat output index i.
fn offsetsOf(i: u32) -> vec3<u32> {
  var ia = P(P_aOffset);
  var ib = P(P_bOffset);
//#if OUT_STRIDED
  var io = P(P_outOffset);
//#else
  var io = i;
//#endif
//#if RANK1
  ia += i * P(P_aStrides);
  ib += i * P(P_bStrides);
//#if OUT_STRIDED
  io += i * P(P_outStrides);
//#endif
//#else
  var rest = i;
  for (var d = /*RANK*/u; d > 0u; d--) {
    let size = P(P_shape + d - 1u);
    let next = rest / size;
    let index = rest - next * size;
    rest = next;
    ia += index * P(P_aStrides + d - 1u);
    ib += index * P(P_bStrides + d - 1u);
//#if OUT_STRIDED
    io += index * P(P_outStrides + d - 1u);
//#endif
  }
//#endif
  return vec3<u32>(ia, ib, io);
}

// Four consecutive output elements per invocation: the index arithmetic (divisions per
// dimension) runs once, then offsets step along the innermost dimension until it wraps.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let first = flatId(gid, nwg) * 4u;
  let n = P(P_n);
  if (first >= n) {
    return;
  }
  let innerSize = P(P_shape + /*RANK*/u - 1u);
//#if OUT_STRIDED
  let step = vec3<u32>(P(P_aStrides + /*RANK*/u - 1u), P(P_bStrides + /*RANK*/u - 1u), P(P_outStrides + /*RANK*/u - 1u));
//#else
  let step = vec3<u32>(P(P_aStrides + /*RANK*/u - 1u), P(P_bStrides + /*RANK*/u - 1u), 1u);
//#endif
  var at = offsetsOf(first);
  var inner = first % innerSize;
  let count = min(4u, n - first);
  for (var j = 0u; j < count; j++) {
    if (j > 0u) {
      inner += 1u;
      if (inner == innerSize) {
        inner = 0u;
        at = offsetsOf(first + j);
      } else {
        at += step;
      }
    }
    let x = /*C*/(A[at.x]);
//#if HAS_B
    OUT[at.z] = op(x, /*C*/(B[at.y]));
//#elif SCALAR_FIRST
    OUT[at.z] = op(bitcast</*C*/>(P(P_scalar)), x);
//#elif SCALAR_B
    OUT[at.z] = op(x, bitcast</*C*/>(P(P_scalar)));
//#else
    OUT[at.z] = op(x, x);
//#endif
  }
}
//#endif
