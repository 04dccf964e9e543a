// Folds columns back onto the image, summing overlapping windows: columns [N * outH * outW,
// C * kH * kW] (strided) -> out [N, C, H, W]. Gather form, no atomics: each invocation owns one
// output pixel and visits the kH * kW window positions that could have read it.
// Flags: STRIDE1 (both strides 1: window positions need no division).
// Params: COL2IM in src/engine/backends/webgpu/param-layouts.ts.

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read> COLS: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  let C = P(P_channels);
  let H = P(P_height);
  let W = P(P_width);
  if (i >= P(P_batch) * C * H * W) {
    return;
  }
  let kH = P(P_kernelH);
  let kW = P(P_kernelW);
  let strideH = i32(P(P_strideH));
  let strideW = i32(P(P_strideW));
  let outH = i32(P(P_outH));
  let outW = i32(P(P_outW));
  let w = i % W;
  let h = (i / W) % H;
  let c = (i / (W * H)) % C;
  let n = i / (W * H * C);
  var sum = 0.0;
  for (var kh = 0u; kh < kH; kh++) {
    let y = i32(h) + PI(P_padH) - i32(kh * P(P_dilationH));
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
      let x = i32(w) + PI(P_padW) - i32(kw * P(P_dilationW));
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
      sum += COLS[P(P_colsOffset) + row * P(P_colsRowStride) + col * P(P_colsColStride)];
    }
  }
  OUT[i] = sum;
}
