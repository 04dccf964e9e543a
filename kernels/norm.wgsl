// Normalisation (LayerNorm, BatchNorm, GroupNorm, InstanceNorm) of x, a view [A, C, B] whose
// slices are contiguous runs of B, per channel c over its A·B values.
// Forward: the mean (one pass of sums), the biased variance (a second pass over x - mean: two
// passes, so no cancellation as in E[x²] - E[x]²), then y = (x - mean) / sqrt(var + eps); writes
// MEAN[c] and VAR[c] for running statistics and the backward.
// BACKWARD: dx = (g - mean(g) - y·mean(g·y)) / sqrt(var + eps), both means in one pass.
// WORKGROUP: 64 invocations per channel with shared-memory trees (long slices); otherwise one
// invocation per channel (many short slices, as LayerNorm's rows).
// Params: NORM in src/engine/backends/webgpu/param-layouts.ts.

//#if BACKWARD
@group(0) @binding(1) var<storage, read_write> DX: array<f32>;
@group(0) @binding(2) var<storage, read> G: array<f32>;
@group(0) @binding(3) var<storage, read> Y: array<f32>;
@group(0) @binding(4) var<storage, read> VAR: array<f32>;
//#else
@group(0) @binding(1) var<storage, read_write> Y: array<f32>;
@group(0) @binding(2) var<storage, read_write> MEAN: array<f32>;
@group(0) @binding(3) var<storage, read_write> VAR: array<f32>;
@group(0) @binding(4) var<storage, read> X: array<f32>;
//#endif

// Element k (of A·B) of channel c's slice, as an index into a contiguous [A, C, B] tensor.
fn at(k: u32, c: u32) -> u32 {
  let inner = P(P_inner);
  let a = k / inner;
  return (a * P(P_channels) + c) * inner + (k - a * inner);
}

//#if WORKGROUP
const LANES = 64u;
var<workgroup> partial: array<vec2<f32>, 64>;

// Tree-sums partial[] into partial[0], leaving it for all to read.
fn total(lid: u32, value: vec2<f32>) -> vec2<f32> {
  partial[lid] = value;
  for (var s = LANES / 2u; s > 0u; s >>= 1u) {
    workgroupBarrier();
    if (lid < s) {
      partial[lid] += partial[lid + s];
    }
  }
  workgroupBarrier();
  let result = partial[0];
  // Nobody may overwrite partial[0] for the next tree before everyone has read it.
  workgroupBarrier();
  return result;
}
//#else
const LANES = 1u;
fn total(lid: u32, value: vec2<f32>) -> vec2<f32> {
  return value;
}
//#endif

fn channel(c: u32, lid: u32) {
  let n = P(P_outer) * P(P_inner);
  let count = f32(n);
//#if BACKWARD
  let xOffset = u32(PI(P_xOffset));
  let yOffset = u32(PI(P_yOffset));
  var sums = vec2<f32>(0.0);
  for (var k = lid; k < n; k += LANES) {
    let g = G[xOffset + at(k, c)];
    sums += vec2<f32>(g, g * Y[yOffset + at(k, c)]);
  }
  let means = total(lid, sums) / count;
  let rstd = inverseSqrt(VAR[u32(PI(P_varOffset)) + c] + PF(P_eps));
  for (var k = lid; k < n; k += LANES) {
    let i = at(k, c);
    DX[i] = (G[xOffset + i] - means.x - Y[yOffset + i] * means.y) * rstd;
  }
//#else
  let xOffset = u32(PI(P_xOffset));
  var s = 0.0;
  for (var k = lid; k < n; k += LANES) {
    s += X[xOffset + at(k, c)];
  }
  let mean = total(lid, vec2<f32>(s, 0.0)).x / count;
  var q = 0.0;
  for (var k = lid; k < n; k += LANES) {
    let d = X[xOffset + at(k, c)] - mean;
    q += d * d;
  }
  let variance = total(lid, vec2<f32>(q, 0.0)).x / count;
  let rstd = inverseSqrt(variance + PF(P_eps));
  for (var k = lid; k < n; k += LANES) {
    let i = at(k, c);
    Y[i] = (X[xOffset + i] - mean) * rstd;
  }
  if (lid == 0u) {
    MEAN[c] = mean;
    VAR[c] = variance;
  }
//#endif
}

//#if WORKGROUP
@compute @workgroup_size(64)
fn main(
  @builtin(workgroup_id) wid: vec3<u32>,
  @builtin(num_workgroups) nwg: vec3<u32>,
  @builtin(local_invocation_index) lid: u32,
) {
  let c = flatGroup(wid, nwg);
  if (c >= P(P_channels)) {
    return;
  }
  channel(c, lid);
}
//#else
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let c = flatId(gid, nwg);
  if (c >= P(P_channels)) {
    return;
  }
  channel(c, 0u);
}
//#endif
