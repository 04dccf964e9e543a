// Fused Adam step over one to four parameters at once, in place: reads each p, g, m, v once and
// writes p, m, v once (the composed form is a dozen element-wise passes and dispatches per
// parameter). Parameter s's buffers are PARAM<s>, M<s>, V<s> and GRAD<s>; its elements are the
// invocations after those of the slots before it. The bindings and the per-slot branches are
// generated (src/engine/backends/webgpu/adam.ts).
// Params: ADAM in src/engine/backends/webgpu/param-layouts.ts.

/*BINDINGS*/

// One element's step: the new (p, m, v).
fn adamUpdate(p: f32, gradient: f32, m0: f32, v0: f32) -> vec3<f32> {
  let b1 = PF(P_beta1);
  let b2 = PF(P_beta2);
  var g = gradient;
  if (P(P_maximize) != 0u) {
    g = -g;
  }
  g += PF(P_weightDecay) * p;
  let m = m0 + (g - m0) * (1.0 - b1);
  let v = v0 * b2 + g * g * (1.0 - b2);
  return vec3<f32>(p - PF(P_stepSize) * (m / (sqrt(v) * PF(P_vScale) + PF(P_eps))), m, v);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  var i = flatId(gid, nwg);
/*SLOTS*/
}
