// Prelude of every kernel: the per-dispatch parameter block and small shared helpers.
// Parameters arrive as 64 u32 words in a uniform buffer (one 256-byte slot per dispatch, bound
// with a dynamic offset), so one compiled shader serves every shape. Storage bindings start at 1,
// outputs first.

struct Params {
  v: array<vec4<u32>, 16>,
}

@group(0) @binding(0) var<uniform> params: Params;

fn P(i: u32) -> u32 {
  return params.v[i >> 2u][i & 3u];
}

fn PF(i: u32) -> f32 {
  return bitcast<f32>(P(i));
}

fn PI(i: u32) -> i32 {
  return bitcast<i32>(P(i));
}

// Flat index of an invocation in a grid of 64-wide workgroups that may wrap onto a second axis
// (one axis holds at most 65535 workgroups).
fn flatId(gid: vec3<u32>, nwg: vec3<u32>) -> u32 {
  return gid.x + gid.y * nwg.x * 64u;
}

// Flat index of a workgroup in a grid that may wrap onto a second axis.
fn flatGroup(wid: vec3<u32>, nwg: vec3<u32>) -> u32 {
  return wid.x + wid.y * nwg.x;
}

// +infinity. WGSL rejects infinite constant expressions, so the bits go through a variable.
fn infinity() -> f32 {
  var bits = 0x7f800000u;
  return bitcast<f32>(bits);
}

fn notANumber() -> f32 {
  var bits = 0x7fc00000u;
  return bitcast<f32>(bits);
}

// Element-wise helpers shared by elementwise.wgsl and fused-elementwise.wgsl.

// pow for every sign of the base: WGSL's pow is undefined for a < 0 and gives NaN for 0^0.
fn powSafe(a: f32, b: f32) -> f32 {
  if (b == 0.0) {
    return 1.0;
  }
  let magnitude = pow(abs(a), b);
  if (a >= 0.0) {
    return magnitude;
  }
  if (floor(b) != b) {
    return notANumber();
  }
  let odd = floor(b * 0.5) * 2.0 != b;
  return select(magnitude, -magnitude, odd);
}

// tanh without inf/inf for large |x| (some drivers compute tanh as a ratio of exponentials).
fn tanhSafe(x: f32) -> f32 {
  let t = exp(-2.0 * abs(x));
  return sign(x) * (1.0 - t) / (1.0 + t);
}

fn sigmoid(x: f32) -> f32 {
  return 1.0 / (1.0 + exp(-x));
}

// softplus: log(1 + e^x) = max(x, 0) + log1p(e^-|x|), without overflow for large x. WGSL has no
// log1p: log(u) * e / (u - 1) with u = 1 + e corrects u's rounding, and e itself is log1p(e)
// where u rounds to 1 (so large negative x keep their tiny values).
fn softplus(x: f32) -> f32 {
  let e = exp(-abs(x));
  let u = 1.0 + e;
  let log1p = select(log(u) * e / (u - 1.0), e, u == 1.0);
  return max(x, 0.0) + log1p;
}

// Φ(x), the standard normal CDF, as erfc(-x/√2)/2 with Numerical Recipes' erfc (relative error
// under 1.2e-7 everywhere, so the left tail keeps its tiny values). WGSL has no erf.
fn normalCdf(x: f32) -> f32 {
  let z = abs(x) * 0.70710678;
  let t = 1.0 / (1.0 + 0.5 * z);
  let poly = -1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806
    + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  let erfcZ = t * exp(-z * z + poly);
  return select(1.0 - 0.5 * erfcZ, 0.5 * erfcZ, x < 0.0);
}

// gelu(x) = x·Φ(x), PyTorch's approximate='none'.
fn gelu(x: f32) -> f32 {
  return x * normalCdf(x);
}

// d gelu / dx = Φ(x) + x·φ(x).
fn geluDerivative(x: f32) -> f32 {
  return normalCdf(x) + x * exp(-0.5 * x * x) * 0.39894228;
}
