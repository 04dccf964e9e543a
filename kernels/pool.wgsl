// Max pooling of x [N, C, H, W] (strided) into out and indices [N, C, outH, outW]: each
// invocation scans RUN neighbouring windows of one output row and records the flat h * W + w of
// each window's first maximum. Positions in the padding are skipped (as if -infinity).
// Flag WINDOW2X2: 2 x 2 windows at stride 2 without padding (the usual pooling), read as four
// loads and three compares in scan order with no loops: CPU emulations run the general loops,
// whose bounds differ per window, several times slower.
// Params: POOL in src/engine/backends/webgpu/param-layouts.ts.

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read_write> INDICES: array<i32>;
@group(0) @binding(3) var<storage, read> X: array<f32>;

// [start, end) of window `o` along an axis of `size` inputs, clipped to the input.
fn window(o: u32, size: u32, outSize: u32, kernel: u32, stride: u32, pad: u32) -> vec2<u32> {
  if (P(P_adaptive) != 0u) {
    return vec2<u32>((o * size) / outSize, ((o + 1u) * size + outSize - 1u) / outSize);
  }
  let start = i32(o * stride) - i32(pad);
  let end = min(start + i32(kernel), i32(size));
  return vec2<u32>(u32(max(start, 0)), u32(max(end, 0)));
}

// Outputs of one row per invocation (see RUN): the divisions that find the row happen once.
const RUN = 4u;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  let C = P(P_channels);
  let H = P(P_height);
  let W = P(P_width);
  let outH = P(P_outH);
  let outW = P(P_outW);
  let runs = P(P_runs);
  let row = i / runs;
  if (row >= P(P_batch) * C * outH) {
    return;
  }
  let start = (i - row * runs) * RUN;
  let end = min(start + RUN, outW);
  let oh = row % outH;
  let c = (row / outH) % C;
  let n = row / (outH * C);
  let base = P(P_xOffset) + n * P(P_xStrides) + c * P(P_xStrides + 1u);
//#if WINDOW2X2
  let sh = P(P_xStrides + 2u);
  let sw = P(P_xStrides + 3u);
  let h = 2u * oh;
  for (var ow = start; ow < end; ow++) {
    let w = 2u * ow;
    let p = base + h * sh + w * sw;
    let at = i32(h * W + w);
    let v = vec4<f32>(X[p], X[p + sw], X[p + sh], X[p + sh + sw]);
    var best = v.x;
    var bestAt = at;
    let right = v.y > best;
    best = select(best, v.y, right);
    bestAt = select(bestAt, at + 1, right);
    let below = v.z > best;
    best = select(best, v.z, below);
    bestAt = select(bestAt, at + i32(W), below);
    let corner = v.w > best;
    best = select(best, v.w, corner);
    bestAt = select(bestAt, at + i32(W) + 1, corner);
    OUT[row * outW + ow] = best;
    INDICES[row * outW + ow] = bestAt;
  }
//#else
  let rows = window(oh, H, outH, P(P_kernelH), P(P_strideH), P(P_padH));
  for (var ow = start; ow < end; ow++) {
    let cols = window(ow, W, outW, P(P_kernelW), P(P_strideW), P(P_padW));
    var best = -infinity();
    var bestAt = -1;
    for (var h = rows.x; h < rows.y; h++) {
      for (var w = cols.x; w < cols.y; w++) {
        let v = X[base + h * P(P_xStrides + 2u) + w * P(P_xStrides + 3u)];
        if (bestAt < 0 || v > best) {
          best = v;
          bestAt = i32(h * W + w);
        }
      }
    }
    OUT[row * outW + ow] = best;
    INDICES[row * outW + ow] = bestAt;
  }
//#endif
}
