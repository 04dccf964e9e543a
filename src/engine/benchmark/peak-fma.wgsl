// Register-only FMA throughput: eight independent vec4 chains per invocation, no memory traffic
// inside the loop, so the figure is the adapter's arithmetic peak as our kernels can reach it.
// ROUNDS (generated, peak-fma.ts) is the chains' FMAs per loop iteration: enough of them that the
// loop's own cost (on a CPU emulation, a masked blend of every loop-carried vector) is amortized.
@group(0) @binding(0) var<storage, read_write> sink: array<vec4f>;
@group(0) @binding(1) var<uniform> iterations: vec4u;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let seed = f32(id.x) * 1e-7;
  var a0 = vec4f(seed); var a1 = vec4f(seed + 1e-3); var a2 = vec4f(seed + 2e-3); var a3 = vec4f(seed + 3e-3);
  var a4 = vec4f(seed + 4e-3); var a5 = vec4f(seed + 5e-3); var a6 = vec4f(seed + 6e-3); var a7 = vec4f(seed + 7e-3);
  let m = vec4f(0.99999);
  let c = vec4f(1e-6);
  for (var i = 0u; i < iterations.x; i++) {
/*ROUNDS*/
  }
  sink[id.x] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}
