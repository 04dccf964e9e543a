// Unfolds convolution windows: x [N, C, H, W] (strided) -> columns [N * outH * outW, C * kH * kW].
// One invocation per (output pixel, channel) writes that channel's kH * kW window, so the index
// divisions (slow where a CPU emulates the GPU) happen once per window instead of once per
// element; positions in the padding read 0.
// Params: IM2COL in src/engine/backends/webgpu/param-layouts.ts.

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read> X: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  let C = P(P_channels);
  let kH = P(P_kernelH);
  let kW = P(P_kernelW);
  let outH = P(P_outH);
  let outW = P(P_outW);
  let rows = P(P_batch) * outH * outW;
  if (i >= rows * C) {
    return;
  }
  // Neighbouring invocations take neighbouring output pixels of one channel (neighbouring reads).
  let c = i / rows;
  let row = i - c * rows;
  let ow = row % outW;
  let oh = (row / outW) % outH;
  let n = row / (outW * outH);
  let H = i32(P(P_height));
  let W = i32(P(P_width));
  let sh = P(P_xStrides + 2u);
  let sw = P(P_xStrides + 3u);
  let base = P(P_xOffset) + n * P(P_xStrides) + c * P(P_xStrides + 1u);
  let ih0 = i32(oh * P(P_strideH)) - PI(P_padH);
  let iw0 = i32(ow * P(P_strideW)) - PI(P_padW);
  var at = row * C * kH * kW + c * kH * kW;
  for (var kh = 0u; kh < kH; kh++) {
    let ih = ih0 + i32(kh * P(P_dilationH));
    let rowOk = ih >= 0 && ih < H;
    for (var kw = 0u; kw < kW; kw++) {
      let iw = iw0 + i32(kw * P(P_dilationW));
      var v = 0.0;
      if (rowOk && iw >= 0 && iw < W) {
        v = X[base + u32(ih) * sh + u32(iw) * sw];
      }
      OUT[at] = v;
      at++;
    }
  }
}
