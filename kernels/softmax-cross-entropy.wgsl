// Fused softmax cross-entropy of logits [rows, cols] against int32 class labels [rows], one
// invocation per row (class counts are small; three passes over a row stay in cache):
//   loss[r] = log(sum_c exp(x[r, c] - max_r)) + max_r - x[r, label[r]]
// GRAD also writes the loss's gradient with respect to the logits, softmax(x[r]) - onehot(label),
// in the same pass, so backward is one multiply by the upstream gradient instead of a re-run of
// softmax, a scatter and four element-wise kernels. An out-of-range label gives a NaN loss (a GPU
// cannot throw; the CPU backend checks labels before dispatch), except -100, PyTorch's default
// ignore_index, whose row has loss 0 and gradient 0 (cross_entropy's mean counts the other rows).
// Flags: GRAD.
// Params: SOFTMAX_CROSS_ENTROPY in src/engine/backends/webgpu/param-layouts.ts.

@group(0) @binding(1) var<storage, read_write> LOSS: array<f32>;
//#if GRAD
@group(0) @binding(2) var<storage, read_write> GRAD: array<f32>;
@group(0) @binding(3) var<storage, read> X: array<f32>;
@group(0) @binding(4) var<storage, read> LABELS: array<i32>;
//#else
@group(0) @binding(2) var<storage, read> X: array<f32>;
@group(0) @binding(3) var<storage, read> LABELS: array<i32>;
//#endif

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = flatId(gid, nwg);
  if (row >= P(P_rows)) {
    return;
  }
  let cols = P(P_cols);
  let sc = P(P_colStride);
  let base = P(P_offset) + row * P(P_rowStride);
  let label = LABELS[P(P_labelsOffset) + row * P(P_labelsStride)];
  var m = -infinity();
  for (var c = 0u; c < cols; c++) {
    m = max(m, X[base + c * sc]);
  }
  var s = 0.0;
  for (var c = 0u; c < cols; c++) {
    s += exp(X[base + c * sc] - m);
  }
  var picked = notANumber();
  if (label >= 0 && u32(label) < cols) {
    picked = X[base + u32(label) * sc];
  }
  let ignored = label == -100;
  LOSS[row] = select(log(s) + m - picked, 0.0, ignored);
//#if GRAD
  let scale = 1.0 / s;
  let out = row * cols;
  for (var c = 0u; c < cols; c++) {
    let g = exp(X[base + c * sc] - m) * scale - select(0.0, 1.0, i32(c) == label);
    GRAD[out + c] = select(g, 0.0, ignored);
  }
//#endif
}
