// One GRU step's gates and state update (nn.GRU's cell), forward and backward, one invocation per
// element (b, j) of the [B, H] state. Gate blocks of the [B, 3H] rows are r, z, n (PyTorch's); X is
// the input's projection (with b_ih), HP the hidden state's (with b_hh).
// FORWARD (default): r = σ(xr + hr), z = σ(xz + hz), n = tanh(xn + r·hn), OUT = h' = n + z·(h - n);
//   ACT[b] = [r | z | n | hn], kept for the backward.
// BACKWARD: from ACT, h and GOUT (h''s gradient): GX and GHP (pre-activation, [B, 3H]) and GH
//   (h's gradient through the update; its path through HP's product is autograd's).
// Every view is contiguous from its offset. Params: GRU_CELL in
// src/engine/backends/webgpu/param-layouts.ts.

//#if BACKWARD
@group(0) @binding(1) var<storage, read_write> GX: array<f32>;
@group(0) @binding(2) var<storage, read_write> GHP: array<f32>;
@group(0) @binding(3) var<storage, read_write> GH: array<f32>;
@group(0) @binding(4) var<storage, read> ACT: array<f32>;
@group(0) @binding(5) var<storage, read> H: array<f32>;
@group(0) @binding(6) var<storage, read> GOUT: array<f32>;
//#else
@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(2) var<storage, read_write> ACT: array<f32>;
@group(0) @binding(3) var<storage, read> X: array<f32>;
@group(0) @binding(4) var<storage, read> HP: array<f32>;
@group(0) @binding(5) var<storage, read> H: array<f32>;
//#endif

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let e = flatId(gid, nwg);
  let hidden = P(P_hidden);
  if (e >= P(P_batch) * hidden) {
    return;
  }
  let b = e / hidden;
  let j = e - b * hidden;
  let g3 = b * 3u * hidden + j; // gate r of this element; z and n follow H apart
  let a4 = P(P_aOffset) + b * 4u * hidden + j;
  let h = H[P(P_hOffset) + e];
//#if BACKWARD
  let r = ACT[a4];
  let z = ACT[a4 + hidden];
  let n = ACT[a4 + 2u * hidden];
  let hn = ACT[a4 + 3u * hidden];
  let go = GOUT[P(P_goOffset) + e];
  let dn = go * (1.0 - z) * (1.0 - n * n);
  let dz = go * (h - n) * z * (1.0 - z);
  let dr = dn * hn * r * (1.0 - r);
  let x = P(P_xOffset) + g3;
  GX[x] = dr;
  GX[x + hidden] = dz;
  GX[x + 2u * hidden] = dn;
  let p = P(P_hpOffset) + g3;
  GHP[p] = dr;
  GHP[p + hidden] = dz;
  GHP[p + 2u * hidden] = dn * r;
  GH[P(P_outOffset) + e] = go * z;
//#else
  let x = P(P_xOffset) + g3;
  let p = P(P_hpOffset) + g3;
  let r = sigmoid(X[x] + HP[p]);
  let z = sigmoid(X[x + hidden] + HP[p + hidden]);
  let hn = HP[p + 2u * hidden];
  let n = tanhSafe(X[x + 2u * hidden] + r * hn);
  OUT[P(P_outOffset) + e] = n + z * (h - n);
  ACT[a4] = r;
  ACT[a4 + hidden] = z;
  ACT[a4 + 2u * hidden] = n;
  ACT[a4 + 3u * hidden] = hn;
//#endif
}
