// Register-only FMA throughput: eight independent vec4 chains per invocation, no memory traffic
// inside the loop, so the figure is the adapter's arithmetic peak as our kernels can reach it.
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
    a0 = fma(a0, m, c); a1 = fma(a1, m, c); a2 = fma(a2, m, c); a3 = fma(a3, m, c);
    a4 = fma(a4, m, c); a5 = fma(a5, m, c); a6 = fma(a6, m, c); a7 = fma(a7, m, c);
  }
  sink[id.x] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}
