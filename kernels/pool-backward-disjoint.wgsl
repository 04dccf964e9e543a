// Max pooling backward for disjoint windows (stride == kernel, no padding; or adaptive pooling
// whose input divides evenly): each invocation owns RUN neighbouring windows of a row and writes
// every input pixel of them — the gradient at the recorded max, 0 elsewhere — so no invocation
// searches for the windows covering a pixel. The last window of a row / column also zeroes the
// pixels no window covers.
// Params: as pool-backward.wgsl (6 kH, 7 kW are the window size; strides equal them) |
//         23 runs per output row (ceil(outW / RUN))

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read> GRAD: array<f32>;
@group(0) @binding(3) var<storage, read> INDICES: array<i32>;

// Windows of one output row per invocation (see RUN): the divisions that find the row happen once.
const RUN = 4u;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  let C = P(1u);
  let H = P(2u);
  let W = P(3u);
  let outH = P(4u);
  let outW = P(5u);
  let runs = P(23u);
  let row = i / runs;
  if (row >= P(0u) * C * outH) {
    return;
  }
  let start = (i - row * runs) * RUN;
  let end = min(start + RUN, outW);
  let oh = row % outH;
  let nc = row / outH;
  let c = nc % C;
  let n = nc / C;
  let h0 = oh * P(6u);
  let h1 = select(h0 + P(6u), H, oh + 1u == outH);
  let base = nc * H * W;
  let gradRow = P(13u) + n * P(14u) + c * P(15u) + oh * P(16u);
  let indexRow = P(18u) + n * P(19u) + c * P(20u) + oh * P(21u);
  for (var ow = start; ow < end; ow++) {
    let grad = GRAD[gradRow + ow * P(17u)];
    let at = INDICES[indexRow + ow * P(22u)];
    let w0 = ow * P(7u);
    let w1 = select(w0 + P(7u), W, ow + 1u == outW);
    for (var h = h0; h < h1; h++) {
      for (var w = w0; w < w1; w++) {
        let own = h * W + w;
        OUT[base + own] = select(0.0, grad, i32(own) == at);
      }
    }
  }
}
