// Zero-padded copy of an image batch: x [N, C, H, W] (strided) -> out [N, C, H + 2 padH,
// W + 2 padW] (contiguous), zeros in the border. One invocation writes a run of up to 64 elements
// of one output row, so the index divisions happen once per run, not once per element.
// Params: PAD in src/engine/backends/webgpu/param-layouts.ts.

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read> X: array<f32>;

const RUN = 64u;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  let C = P(P_channels);
  let H = P(P_height);
  let W = P(P_width);
  let padH = P(P_padH);
  let padW = P(P_padW);
  let outH = H + 2u * padH;
  let outW = W + 2u * padW;
  let runs = P(P_runs);
  let row = i / runs;
  if (row >= P(P_batch) * C * outH) {
    return;
  }
  let start = (i - row * runs) * RUN;
  let end = min(start + RUN, outW);
  let oh = row % outH;
  let image = row / outH;
  let c = image % C;
  let n = image / C;
  let at = row * outW;
  // Rows in the top and bottom border are all zeros (u32 wrap makes oh < padH fail the test).
  let h = oh - padH;
  if (h >= H) {
    for (var w = start; w < end; w++) {
      OUT[at + w] = 0.0;
    }
    return;
  }
  let base = P(P_xOffset) + n * P(P_xStrides) + c * P(P_xStrides + 1u) + h * P(P_xStrides + 2u);
  let sw = P(P_xStrides + 3u);
  for (var w = start; w < end; w++) {
    let iw = w - padW;
    var v = 0.0;
    if (iw < W) {
      v = X[base + iw * sw];
    }
    OUT[at + w] = v;
  }
}
