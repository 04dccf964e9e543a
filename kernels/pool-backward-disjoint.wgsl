// Max pooling backward for disjoint windows (stride == kernel, no padding; or adaptive pooling
// whose input divides evenly): each invocation owns RUN neighbouring windows of a row and writes
// every input pixel of them — the gradient at the recorded max, 0 elsewhere — so no invocation
// searches for the windows covering a pixel. The last window of a row / column also zeroes the
// pixels no window covers.
// Flag WINDOW2X2: 2 x 2 windows tiling the input exactly (H = 2 outH, W = 2 outW): four stores
// per window with no loops (CPU emulations run the general loops several times slower).
// Params: POOL_BACKWARD in src/engine/backends/webgpu/param-layouts.ts; kernelH, kernelW are the
// window size (strides equal them), runs = ceil(outW / RUN).

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read> GRAD: array<f32>;
@group(0) @binding(3) var<storage, read> INDICES: array<i32>;

// Windows of one output row per invocation (see RUN): the divisions that find the row happen once.
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
  let nc = row / outH;
  let c = nc % C;
  let n = nc / C;
  let h0 = oh * P(P_kernelH);
  let h1 = select(h0 + P(P_kernelH), H, oh + 1u == outH);
  let base = nc * H * W;
  let gradRow = P(P_gradOffset) + n * P(P_gradStrides) + c * P(P_gradStrides + 1u) + oh * P(P_gradStrides + 2u);
  let indexRow = P(P_indicesOffset) + n * P(P_indicesStrides) + c * P(P_indicesStrides + 1u) + oh * P(P_indicesStrides + 2u);
  for (var ow = start; ow < end; ow++) {
    let grad = GRAD[gradRow + ow * P(P_gradStrides + 3u)];
    let at = INDICES[indexRow + ow * P(P_indicesStrides + 3u)];
//#if WINDOW2X2
    let own = h0 * W + 2u * ow;
    let q = base + own;
    OUT[q] = select(0.0, grad, i32(own) == at);
    OUT[q + 1u] = select(0.0, grad, i32(own + 1u) == at);
    OUT[q + W] = select(0.0, grad, i32(own + W) == at);
    OUT[q + W + 1u] = select(0.0, grad, i32(own + W + 1u) == at);
//#else
    let w0 = ow * P(P_kernelW);
    let w1 = select(w0 + P(P_kernelW), W, ow + 1u == outW);
    for (var h = h0; h < h1; h++) {
      for (var w = w0; w < w1; w++) {
        let own = h * W + w;
        OUT[base + own] = select(0.0, grad, i32(own) == at);
      }
    }
//#endif
  }
}
