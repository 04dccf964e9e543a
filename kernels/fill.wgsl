// Fills a contiguous output with one 32-bit pattern (the f32 or i32 value's bits), so one
// pipeline serves both dtypes.
// Flags: VEC4 (4-aligned offset: four elements per invocation, keeping what lies past the end).
// Params: FILL in src/engine/backends/webgpu/param-layouts.ts.

//#if VEC4
@group(0) @binding(1) var<storage, read_write> OUT: array<vec4<u32>>;
//#else
@group(0) @binding(1) var<storage, read_write> OUT: array<u32>;
//#endif

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  let n = P(P_n);
//#if VEC4
  if (i * 4u >= n) {
    return;
  }
  let at = (P(P_offset) >> 2u) + i;
  if (i * 4u + 4u <= n) {
    OUT[at] = vec4<u32>(P(P_bits));
    return;
  }
  var merged = OUT[at];
  for (var j = 0u; i * 4u + j < n; j++) {
    merged[j] = P(P_bits);
  }
  OUT[at] = merged;
//#else
  if (i >= n) {
    return;
  }
  OUT[P(P_offset) + i] = P(P_bits);
//#endif
}
