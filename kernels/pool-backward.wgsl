// Max pooling backward: routes gradOut [N, C, outH, outW] to the recorded max positions, summing
// where windows overlap. Gather form, no atomics: each invocation owns one input pixel (h, w) and
// visits only the windows that contain it.
// Params: POOL_BACKWARD in src/engine/backends/webgpu/param-layouts.ts.

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read> GRAD: array<f32>;
@group(0) @binding(3) var<storage, read> INDICES: array<i32>;

// [first, last + 1) of the windows along an axis that contain input position p.
fn covering(p: u32, size: u32, outSize: u32, kernel: u32, stride: u32, pad: u32) -> vec2<u32> {
  if (P(P_adaptive) != 0u) {
    // Window o covers [floor(o * size / out), ceil((o + 1) * size / out)).
    return vec2<u32>((p * outSize) / size, ((p + 1u) * outSize + size - 1u) / size);
  }
  // Window o covers [o * stride - pad, o * stride - pad + kernel).
  let low = i32(p + pad) - i32(kernel) + 1;
  var first = 0u;
  if (low > 0) {
    first = (u32(low) + stride - 1u) / stride;
  }
  let last = min((p + pad) / stride + 1u, outSize);
  return vec2<u32>(first, max(first, last));
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  let C = P(P_channels);
  let H = P(P_height);
  let W = P(P_width);
  if (i >= P(P_batch) * C * H * W) {
    return;
  }
  let w = i % W;
  let h = (i / W) % H;
  let c = (i / (W * H)) % C;
  let n = i / (W * H * C);
  let own = i32(h * W + w);
  let rows = covering(h, H, P(P_outH), P(P_kernelH), P(P_strideH), P(P_padH));
  let cols = covering(w, W, P(P_outW), P(P_kernelW), P(P_strideW), P(P_padW));
  let gradBase = P(P_gradOffset) + n * P(P_gradStrides) + c * P(P_gradStrides + 1u);
  let indexBase = P(P_indicesOffset) + n * P(P_indicesStrides) + c * P(P_indicesStrides + 1u);
  var sum = 0.0;
  for (var oh = rows.x; oh < rows.y; oh++) {
    for (var ow = cols.x; ow < cols.y; ow++) {
      if (INDICES[indexBase + oh * P(P_indicesStrides + 2u) + ow * P(P_indicesStrides + 3u)] == own) {
        sum += GRAD[gradBase + oh * P(P_gradStrides + 2u) + ow * P(P_gradStrides + 3u)];
      }
    }
  }
  OUT[i] = sum;
}
