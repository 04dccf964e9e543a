// Counter-based random numbers: element i is a pure function of (seed, counter + i) through
// Philox-4x32-10 (Salmon et al., SC'11), so every backend and every launch shape gives the same
// numbers. src/engine/backends/webgpu/random-reference.ts is the same algorithm in TypeScript; the
// two must stay bit-identical for uniform output.
// Stream position g = counter + i uses word g % 4 of the Philox block for counter words
// (lo, hi) of g / 4, then 0, 0, and key (seed lo, seed hi). One invocation computes one block
// and writes its (up to) four elements.
// uniform: a + (b - a) * u with u = (word >> 8) * 2^-24 in [0, 1).
// normal: Box-Muller on word pairs (0, 1) and (2, 3): r = sqrt(-2 ln u1) with u1 in (0, 1] from
// the first word, angle 2 pi u2 from the second; lanes 0 / 2 take r cos, lanes 1 / 3 take r sin;
// a + b * z.
// Flags: NORMAL.
// Params: RANDOM in src/engine/backends/webgpu/param-layouts.ts.

@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;

// High and low words of the 64-bit product a * b, from 16-bit halves (WGSL has no mulhi).
fn mulHiLo(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu;
  let a1 = a >> 16u;
  let b0 = b & 0xffffu;
  let b1 = b >> 16u;
  let p00 = a0 * b0;
  let p01 = a0 * b1;
  let p10 = a1 * b0;
  let p11 = a1 * b1;
  let middle = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  let high = p11 + (p01 >> 16u) + (p10 >> 16u) + (middle >> 16u);
  return vec2<u32>(high, a * b);
}

fn philoxRound(c: vec4<u32>, key: vec2<u32>) -> vec4<u32> {
  let p0 = mulHiLo(0xD2511F53u, c.x);
  let p1 = mulHiLo(0xCD9E8D57u, c.z);
  return vec4<u32>(p1.x ^ c.y ^ key.x, p1.y, p0.x ^ c.w ^ key.y, p0.y);
}

fn philox4x32_10(counter: vec4<u32>, seed: vec2<u32>) -> vec4<u32> {
  var c = counter;
  var key = seed;
  for (var r = 0u; r < 10u; r++) {
    if (r > 0u) {
      key += vec2<u32>(0x9E3779B9u, 0xBB67AE85u);
    }
    c = philoxRound(c, key);
  }
  return c;
}

const TWO_POW_MINUS_24 = 5.9604644775390625e-8;

// cos(2 pi t) to ~1e-7 for any t: some drivers' cos is only accurate to ~1e-4 (WGSL allows
// 2^-11), which would make normal samples device-dependent in the fourth digit.
fn cos2pi(t: f32) -> f32 {
  // Reduce to y in [0, 1/4] using cos(2 pi t) = cos(2 pi |t - round(t)|) = -cos(2 pi (1/2 - .)).
  let x = abs(t - round(t));
  let flip = x > 0.25;
  let y = select(x, 0.5 - x, flip);
  let a = 6.283185307179586 * y;
  let a2 = a * a;
  // Taylor series of cos to a^12 (truncation error < 1e-8 for a <= pi / 2).
  let c = 1.0 + a2 * (-0.5 + a2 * (4.1666666666666664e-2 + a2 * (-1.388888888888889e-3
    + a2 * (2.48015873015873e-5 + a2 * (-2.7557319223985894e-7 + a2 * 2.08767569878681e-9)))));
  return select(c, -c, flip);
}

fn unit(word: u32) -> f32 {
  return f32(word >> 8u) * TWO_POW_MINUS_24;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let t = flatId(gid, nwg);
  let n = P(P_n);
  let first = P(P_counterLo) & 3u;
  if (t * 4u >= first + n) {
    return;
  }
  // Block index (counter / 4 + t) as a 64-bit (lo, hi) pair.
  let baseLo = (P(P_counterLo) >> 2u) | (P(P_counterHi) << 30u);
  let baseHi = P(P_counterHi) >> 2u;
  let low = baseLo + t;
  let high = baseHi + select(0u, 1u, low < t);
  let bits = philox4x32_10(vec4<u32>(low, high, 0u, 0u), vec2<u32>(P(P_seedLo), P(P_seedHi)));
  let a = PF(P_a);
  let b = PF(P_b);
//#if NORMAL
  let r01 = sqrt(-2.0 * log(unit(bits.x) + TWO_POW_MINUS_24));
  let r23 = sqrt(-2.0 * log(unit(bits.z) + TWO_POW_MINUS_24));
  let u1 = unit(bits.y);
  let u3 = unit(bits.w);
  let values = vec4<f32>(
    a + b * (r01 * cos2pi(u1)),
    a + b * (r01 * cos2pi(u1 - 0.25)),
    a + b * (r23 * cos2pi(u3)),
    a + b * (r23 * cos2pi(u3 - 0.25)),
  );
//#else
  let values = vec4<f32>(a) + (b - a) * vec4<f32>(unit(bits.x), unit(bits.y), unit(bits.z), unit(bits.w));
//#endif
  // Element i = 4 t + lane - first; lanes before the stream start or past n are skipped.
  for (var lane = 0u; lane < 4u; lane++) {
    let position = t * 4u + lane;
    if (position >= first && position - first < n) {
      OUT[position - first] = values[lane];
    }
  }
}
