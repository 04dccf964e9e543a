// Max pooling backward: routes gradOut [N, C, outH, outW] to the recorded max positions, summing
// where windows overlap. Gather form, no atomics: each invocation owns one input pixel (h, w) and
// visits only the windows that contain it.
// Params: 0..12 as pool.wgsl | 13 gradOut offset | 14..17 gradOut strides | 18 indices offset |
//         19..22 indices strides

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read> GRAD: array<f32>;
@group(0) @binding(3) var<storage, read> INDICES: array<i32>;

// [first, last + 1) of the windows along an axis that contain input position p.
fn covering(p: u32, size: u32, outSize: u32, kernel: u32, stride: u32, pad: u32) -> vec2<u32> {
  if (P(12u) != 0u) {
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
  let C = P(1u);
  let H = P(2u);
  let W = P(3u);
  if (i >= P(0u) * C * H * W) {
    return;
  }
  let w = i % W;
  let h = (i / W) % H;
  let c = (i / (W * H)) % C;
  let n = i / (W * H * C);
  let own = i32(h * W + w);
  let rows = covering(h, H, P(4u), P(6u), P(8u), P(10u));
  let cols = covering(w, W, P(5u), P(7u), P(9u), P(11u));
  let gradBase = P(13u) + n * P(14u) + c * P(15u);
  let indexBase = P(18u) + n * P(19u) + c * P(20u);
  var sum = 0.0;
  for (var oh = rows.x; oh < rows.y; oh++) {
    for (var ow = cols.x; ow < cols.y; ow++) {
      if (INDICES[indexBase + oh * P(21u) + ow * P(22u)] == own) {
        sum += GRAD[gradBase + oh * P(16u) + ow * P(17u)];
      }
    }
  }
  OUT[i] = sum;
}
