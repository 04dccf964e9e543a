// Max pooling backward for disjoint windows (stride == kernel, no padding; or adaptive pooling
// whose input divides evenly): each invocation owns one window and writes every input pixel of
// it — the gradient at the recorded max, 0 elsewhere — so no invocation searches for the windows
// covering a pixel. The last window of a row / column also zeroes the pixels no window covers.
// Params: as pool-backward.wgsl (6 kH, 7 kW are the window size; strides equal them).

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read> GRAD: array<f32>;
@group(0) @binding(3) var<storage, read> INDICES: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  let C = P(1u);
  let H = P(2u);
  let W = P(3u);
  let outH = P(4u);
  let outW = P(5u);
  if (i >= P(0u) * C * outH * outW) {
    return;
  }
  let ow = i % outW;
  let rest = i / outW;
  let oh = rest % outH;
  let nc = rest / outH;
  let c = nc % C;
  let n = nc / C;
  let grad = GRAD[P(13u) + n * P(14u) + c * P(15u) + oh * P(16u) + ow * P(17u)];
  let at = INDICES[P(18u) + n * P(19u) + c * P(20u) + oh * P(21u) + ow * P(22u)];
  let h0 = oh * P(6u);
  let w0 = ow * P(7u);
  let h1 = select(h0 + P(6u), H, oh + 1u == outH);
  let w1 = select(w0 + P(7u), W, ow + 1u == outW);
  let base = nc * H * W;
  for (var h = h0; h < h1; h++) {
    for (var w = w0; w < w1; w++) {
      let own = h * W + w;
      OUT[base + own] = select(0.0, grad, i32(own) == at);
    }
  }
}
