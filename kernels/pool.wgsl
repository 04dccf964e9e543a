// Max pooling of x [N, C, H, W] (strided) into out and indices [N, C, outH, outW]: each
// invocation scans one window and records the flat h * W + w of its first maximum. Positions in
// the padding are skipped (as if -infinity).
// Params: 0 N | 1 C | 2 H | 3 W | 4 outH | 5 outW | 6 kH | 7 kW | 8 strideH | 9 strideW |
//         10 padH | 11 padW | 12 adaptive (0 | 1) | 13 x offset | 14..17 x strides (n, c, h, w)

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read_write> INDICES: array<i32>;
@group(0) @binding(3) var<storage, read> X: array<f32>;

// [start, end) of window `o` along an axis of `size` inputs, clipped to the input.
fn window(o: u32, size: u32, outSize: u32, kernel: u32, stride: u32, pad: u32) -> vec2<u32> {
  if (P(12u) != 0u) {
    return vec2<u32>((o * size) / outSize, ((o + 1u) * size + outSize - 1u) / outSize);
  }
  let start = i32(o * stride) - i32(pad);
  let end = min(start + i32(kernel), i32(size));
  return vec2<u32>(u32(max(start, 0)), u32(max(end, 0)));
}

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
  let oh = (i / outW) % outH;
  let c = (i / (outW * outH)) % C;
  let n = i / (outW * outH * C);
  let rows = window(oh, H, outH, P(6u), P(8u), P(10u));
  let cols = window(ow, W, outW, P(7u), P(9u), P(11u));
  let base = P(13u) + n * P(14u) + c * P(15u);
  var best = -infinity();
  var bestAt = -1;
  for (var h = rows.x; h < rows.y; h++) {
    for (var w = cols.x; w < cols.y; w++) {
      let v = X[base + h * P(16u) + w * P(17u)];
      if (bestAt < 0 || v > best) {
        best = v;
        bestAt = i32(h * W + w);
      }
    }
  }
  OUT[i] = best;
  INDICES[i] = bestAt;
}
