// One LSTM step's gates and state update (nn.LSTM's cell), forward and backward, one invocation per
// element (b, j) of the [B, H] state. Gate blocks of the [B, 4H] rows are i, f, g, o (PyTorch's).
// FORWARD (default): from pre-activation gates and the previous cell state c:
//   STATE[b] = [h' | c'] with c' = σ(f)·c + σ(i)·tanh(g), h' = σ(o)·tanh(c');
//   ACT[b] = [σ(i) | σ(f) | tanh(g) | σ(o)], kept for the backward.
// BACKWARD: from ACT, c, STATE and the state's gradient GSTATE = [gh | gc]:
//   GGATES (pre-activation) and GC (the previous cell state's gradient).
// Every view is contiguous from its offset, but c's rows may be apart (c' of the last step's state). Params: LSTM_CELL in
// src/engine/backends/webgpu/param-layouts.ts.

//#if BACKWARD
@group(0) @binding(1) var<storage, read_write> GGATES: array<f32>;
@group(0) @binding(2) var<storage, read_write> GC: array<f32>;
@group(0) @binding(3) var<storage, read> ACT: array<f32>;
@group(0) @binding(4) var<storage, read> C: array<f32>;
@group(0) @binding(5) var<storage, read> STATE: array<f32>;
@group(0) @binding(6) var<storage, read> GSTATE: array<f32>;
//#else
@group(0) @binding(1) var<storage, read_write> STATE: array<f32>;
@group(0) @binding(2) var<storage, read_write> ACT: array<f32>;
@group(0) @binding(3) var<storage, read> GATES: array<f32>;
@group(0) @binding(4) var<storage, read> C: array<f32>;
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
  let g4 = b * 4u * hidden + j; // gate i of this element; f, g, o follow H apart
  let s2 = b * 2u * hidden + j; // h' of this element; c' is H after it
  let c = C[P(P_cOffset) + b * P(P_cRowStride) + j];
//#if BACKWARD
  let a = P(P_aOffset) + g4;
  let i = ACT[a];
  let f = ACT[a + hidden];
  let g = ACT[a + 2u * hidden];
  let o = ACT[a + 3u * hidden];
  let tc = tanhSafe(STATE[P(P_sOffset) + s2 + hidden]);
  let gs = P(P_gsOffset) + s2;
  let gh = GSTATE[gs];
  let gc = GSTATE[gs + hidden] + gh * o * (1.0 - tc * tc);
  let out = P(P_ggOffset) + g4;
  GGATES[out] = gc * g * i * (1.0 - i);
  GGATES[out + hidden] = gc * c * f * (1.0 - f);
  GGATES[out + 2u * hidden] = gc * i * (1.0 - g * g);
  GGATES[out + 3u * hidden] = gh * tc * o * (1.0 - o);
  GC[P(P_gcOffset) + e] = gc * f;
//#else
  let x = P(P_gOffset) + g4;
  let i = sigmoid(GATES[x]);
  let f = sigmoid(GATES[x + hidden]);
  let g = tanhSafe(GATES[x + 2u * hidden]);
  let o = sigmoid(GATES[x + 3u * hidden]);
  let c2 = f * c + i * g;
  let s = P(P_sOffset) + s2;
  STATE[s] = o * tanhSafe(c2);
  STATE[s + hidden] = c2;
  let a = P(P_aOffset) + g4;
  ACT[a] = i;
  ACT[a + hidden] = f;
  ACT[a + 2u * hidden] = g;
  ACT[a + 3u * hidden] = o;
//#endif
}
