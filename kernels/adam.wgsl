// Fused Adam step over one parameter, in place: reads p, g, m, v once and writes p, m, v once
// (the composed form is a dozen element-wise passes and dispatches per parameter).
// Params: ADAM in src/engine/backends/webgpu/param-layouts.ts.

@group(0) @binding(1) var<storage, read_write> PARAM: array<f32>;
@group(0) @binding(2) var<storage, read_write> M: array<f32>;
@group(0) @binding(3) var<storage, read_write> V: array<f32>;
@group(0) @binding(4) var<storage, read> GRAD: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  if (i >= P(P_count)) {
    return;
  }
  let b1 = PF(P_beta1);
  let b2 = PF(P_beta2);
  let p = PARAM[i];
  var g = GRAD[i];
  if (P(P_maximize) != 0u) {
    g = -g;
  }
  g += PF(P_weightDecay) * p;
  let m = M[i] + (g - M[i]) * (1.0 - b1);
  let v = V[i] * b2 + g * g * (1.0 - b2);
  M[i] = m;
  V[i] = v;
  PARAM[i] = p - PF(P_stepSize) * (m / (sqrt(v) * PF(P_vScale) + PF(P_eps)));
}
