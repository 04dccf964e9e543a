// Gather and scatter-add along the last dim of 2-D views (torch.gather, torch.scatter_add and
// each other's gradients; ops/index-ops.ts moves any dim last first).
// GATHER (default): out[r, k] = x[r, index[r, k]], one invocation per output element.
// SCATTER: out[r, index[r, k]] += values[r, k] into an output the caller zeroed, one invocation
// per value. Columns that share an index collide, so each add is an atomic (a compare-and-swap
// loop on the f32's bits: WGSL has no float atomics), as in index-add.wgsl: duplicates are summed
// in an unspecified order. Out-of-range indices read 0 or add nothing (a GPU cannot throw).
// Flags: SCATTER, INT (int32 scatter: a plain atomicAdd). Placeholders: T (f32 | i32).
// Params: GATHER_ALONG in src/engine/backends/webgpu/param-layouts.ts.

//#if SCATTER
//#if INT
@group(0) @binding(1) var<storage, read_write> OUT: array<atomic<i32>>;
//#else
@group(0) @binding(1) var<storage, read_write> OUT: array<atomic<u32>>;
//#endif
//#else
@group(0) @binding(1) var<storage, read_write> OUT: array</*T*/>;
//#endif
@group(0) @binding(2) var<storage, read> X: array</*T*/>;
@group(0) @binding(3) var<storage, read> INDEX: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  let k = P(P_k);
  if (i >= P(P_rows) * k) {
    return;
  }
  let r = i / k;
  let j = i - r * k;
  let cols = P(P_cols);
  let c = INDEX[P(P_indexOffset) + r * P(P_indexRowStride) + j * P(P_indexColStride)];
  let valid = c >= 0 && u32(c) < cols;
//#if SCATTER
  if (!valid) {
    return;
  }
  let value = X[P(P_xOffset) + r * P(P_xRowStride) + j * P(P_xColStride)];
  let at = r * cols + u32(c);
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
//#else
  var v = /*T*/(0);
  if (valid) {
    v = X[P(P_xOffset) + r * P(P_xRowStride) + u32(c) * P(P_xColStride)];
  }
  OUT[i] = v;
//#endif
}
