// Unfolds convolution windows: x [N, C, H, W] (strided) -> columns [N * outH * outW, C * kH * kW].
// One invocation per (output pixel, channel) writes that channel's kH * kW window, so the index
// divisions (slow where a CPU emulates the GPU) happen once per window instead of once per
// element; positions in the padding read 0.
// Params: 0 N | 1 C | 2 H | 3 W | 4 kH | 5 kW | 6 strideH | 7 strideW | 8 padH | 9 padW |
//         10 dilationH | 11 dilationW | 12 outH | 13 outW | 14 x offset | 15..18 x strides (n, c, h, w)

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read> X: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  let C = P(1u);
  let kH = P(4u);
  let kW = P(5u);
  let outH = P(12u);
  let outW = P(13u);
  let rows = P(0u) * outH * outW;
  if (i >= rows * C) {
    return;
  }
  // Neighbouring invocations take neighbouring output pixels of one channel (neighbouring reads).
  let c = i / rows;
  let row = i - c * rows;
  let ow = row % outW;
  let oh = (row / outW) % outH;
  let n = row / (outW * outH);
  let H = i32(P(2u));
  let W = i32(P(3u));
  let sh = P(17u);
  let sw = P(18u);
  let base = P(14u) + n * P(15u) + c * P(16u);
  let ih0 = i32(oh * P(6u)) - PI(8u);
  let iw0 = i32(ow * P(7u)) - PI(9u);
  var at = row * C * kH * kW + c * kH * kW;
  for (var kh = 0u; kh < kH; kh++) {
    let ih = ih0 + i32(kh * P(10u));
    let rowOk = ih >= 0 && ih < H;
    for (var kw = 0u; kw < kW; kw++) {
      let iw = iw0 + i32(kw * P(11u));
      var v = 0.0;
      if (rowOk && iw >= 0 && iw < W) {
        v = X[base + u32(ih) * sh + u32(iw) * sw];
      }
      OUT[at] = v;
      at++;
    }
  }
}
