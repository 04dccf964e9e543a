// Unfolds convolution windows: x [N, C, H, W] (strided) -> columns [N * outH * outW, C * kH * kW],
// one invocation per column element; positions in the padding read 0.
// Params: 0 N | 1 C | 2 H | 3 W | 4 kH | 5 kW | 6 strideH | 7 strideW | 8 padH | 9 padW |
//         10 dilationH | 11 dilationW | 12 outH | 13 outW | 14 x offset | 15..18 x strides (n, c, h, w)

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read> X: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  let kH = P(4u);
  let kW = P(5u);
  let outH = P(12u);
  let outW = P(13u);
  let cols = P(1u) * kH * kW;
  if (i >= P(0u) * outH * outW * cols) {
    return;
  }
  let row = i / cols;
  let col = i - row * cols;
  let ow = row % outW;
  let oh = (row / outW) % outH;
  let n = row / (outW * outH);
  let kw = col % kW;
  let kh = (col / kW) % kH;
  let c = col / (kW * kH);
  let ih = i32(oh * P(6u) + kh * P(10u)) - PI(8u);
  let iw = i32(ow * P(7u) + kw * P(11u)) - PI(9u);
  var v = 0.0;
  if (ih >= 0 && iw >= 0 && u32(ih) < P(2u) && u32(iw) < P(3u)) {
    v = X[P(14u) + n * P(15u) + c * P(16u) + u32(ih) * P(17u) + u32(iw) * P(18u)];
  }
  OUT[i] = v;
}
