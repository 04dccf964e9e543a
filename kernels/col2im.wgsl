// Folds columns back onto the image, summing overlapping windows: columns [N * outH * outW,
// C * kH * kW] (strided) -> out [N, C, H, W]. Gather form, no atomics: each invocation owns one
// output pixel and visits the kH * kW window positions that could have read it.
// Flags: STRIDE1 (both strides 1: window positions need no division).
// Params: 0..13 as im2col.wgsl | 14 columns offset | 15 columns row stride | 16 columns column stride

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read> COLS: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  let C = P(1u);
  let H = P(2u);
  let W = P(3u);
  if (i >= P(0u) * C * H * W) {
    return;
  }
  let kH = P(4u);
  let kW = P(5u);
  let strideH = i32(P(6u));
  let strideW = i32(P(7u));
  let outH = i32(P(12u));
  let outW = i32(P(13u));
  let w = i % W;
  let h = (i / W) % H;
  let c = (i / (W * H)) % C;
  let n = i / (W * H * C);
  var sum = 0.0;
  for (var kh = 0u; kh < kH; kh++) {
    let y = i32(h) + PI(8u) - i32(kh * P(10u));
//#if STRIDE1
    let oh = y;
    if (y < 0 || oh >= outH) {
      continue;
    }
//#else
    let oh = y / strideH;
    if (y < 0 || oh * strideH != y || oh >= outH) {
      continue;
    }
//#endif
    for (var kw = 0u; kw < kW; kw++) {
      let x = i32(w) + PI(9u) - i32(kw * P(11u));
//#if STRIDE1
      let ow = x;
      if (x < 0 || ow >= outW) {
        continue;
      }
//#else
      let ow = x / strideW;
      if (x < 0 || ow * strideW != x || ow >= outW) {
        continue;
      }
//#endif
      let row = (n * u32(outH) + u32(oh)) * u32(outW) + u32(ow);
      let col = (c * kH + kh) * kW + kw;
      sum += COLS[P(14u) + row * P(15u) + col * P(16u)];
    }
  }
  OUT[i] = sum;
}
