// Reduction over the last dimensions of a strided view. Task t = (row, chunk) reduces elements
// [chunk * chunkLen, min(inner, (chunk + 1) * chunkLen)) of its row's reduced block; with more than
// one chunk per row a second dispatch reduces the partial results (see reduce.ts).
// WORKGROUP: 64 invocations per task, a strided loop then a shared-memory tree (rows that are
// long and contiguous). Otherwise one invocation per task with a serial loop (short rows, or
// reductions along a strided axis, where neighbouring invocations then read neighbouring
// elements). No atomics.
// Placeholders: T (f32 | i32), IDENTITY (an expression of type T), KEEP_RANK (0..6), RED_RANK (1..6).
// Flags: OP_SUM | OP_MAX | OP_MIN; FLOAT (T is f32: NaN checks); WRITE_VAL, WRITE_IDX (which outputs exist); READ_IDX (second
// pass of an arg-reduction: element indices come from the partial-index input); RED1 (reduced
// block is one strided run); WORKGROUP.
// CHAIN: the reduced elements are computed here by a fused element-wise chain (fused.ts fills
// the CHAIN placeholder with its bindings after OUT_VAL, its steps, `chainStart()`, called once
// before an invocation's loop, and `chainAt(i)`, which writes the
// chain's outputs at flat index i and returns the reduced step's value there); rows are then
// consecutive runs of `inner` elements of the chain's flat order. Several sums of one chain run
// as one with T a vector (a lane per reduction; OUT_VAL then holds a vector per task).
// Params: REDUCE in src/engine/backends/webgpu/param-layouts.ts; FUSED_REDUCE with CHAIN.

//#if CHAIN
@group(0) @binding(1) var<storage, read_write> OUT_VAL: array</*T*/>;

/*CHAIN*/
//#elif WRITE_VAL && WRITE_IDX
@group(0) @binding(1) var<storage, read_write> OUT_VAL: array</*T*/>;
@group(0) @binding(2) var<storage, read_write> OUT_IDX: array<i32>;
@group(0) @binding(3) var<storage, read> X: array</*T*/>;
//#elif WRITE_IDX
@group(0) @binding(1) var<storage, read_write> OUT_IDX: array<i32>;
@group(0) @binding(2) var<storage, read> X: array</*T*/>;
//#if READ_IDX
@group(0) @binding(3) var<storage, read> X_IDX: array<i32>;
//#endif
//#else
@group(0) @binding(1) var<storage, read_write> OUT_VAL: array</*T*/>;
@group(0) @binding(2) var<storage, read> X: array</*T*/>;
//#endif

// Index of an accumulator that has seen no element yet.
const EMPTY = 0xffffffffu;

struct Acc {
  v: /*T*/,
  i: u32,
}

// Whether v is a NaN, read from its bits (a compiler may assume that v != v never holds).
fn isNan(v: /*T*/) -> bool {
//#if FLOAT
  return (bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u;
//#else
  return false;
//#endif
}

// Folds element v (at flat index i of the block) into acc; the first occurrence of a max wins,
// and a NaN beats every number (the first NaN, for an arg-reduction), as in PyTorch.
fn fold(acc: Acc, v: /*T*/, i: u32) -> Acc {
//#if OP_SUM
  return Acc(acc.v + v, i);
//#elif OP_MAX
  if (acc.i == EMPTY || v > acc.v || (isNan(v) && !isNan(acc.v))) {
    return Acc(v, i);
  }
  return acc;
//#else
  if (acc.i == EMPTY || v < acc.v || (isNan(v) && !isNan(acc.v))) {
    return Acc(v, i);
  }
  return acc;
//#endif
}

// Combines two partial results; on equal values the smaller index (first occurrence) wins.
fn merge(a: Acc, b: Acc) -> Acc {
  if (a.i == EMPTY) {
    return b;
  }
  if (b.i == EMPTY) {
    return a;
  }
//#if OP_SUM
  return Acc(a.v + b.v, min(a.i, b.i));
//#else
  let aNan = isNan(a.v);
  let bNan = isNan(b.v);
  if (aNan || bNan) {
    if (bNan && (!aNan || b.i < a.i)) {
      return b;
    }
    return a;
  }
//#endif
//#if OP_MAX
  if (b.v > a.v || (b.v == a.v && b.i < a.i)) {
    return b;
  }
  return a;
//#elif OP_MIN
  if (b.v < a.v || (b.v == a.v && b.i < a.i)) {
    return b;
  }
  return a;
//#endif
}

//#if CHAIN
fn rowBase(row: u32) -> u32 {
  return row * P(P_inner);
}
//#else
fn rowBase(row: u32) -> u32 {
  return P(P_offset) + keptOffset(row);
}

fn keptOffset(row: u32) -> u32 {
  var offset = 0u;
  var rest = row;
  for (var d = /*KEEP_RANK*/u; d > 0u; d--) {
    let size = P(P_keptShape + d - 1u);
    let next = rest / size;
    offset += (rest - next * size) * P(P_keptStrides + d - 1u);
    rest = next;
  }
  return offset;
}

fn reducedOffset(j: u32) -> u32 {
//#if RED1
  return j * P(P_reducedStrides);
//#else
  var offset = 0u;
  var rest = j;
  for (var d = /*RED_RANK*/u; d > 0u; d--) {
    let size = P(P_reducedShape + d - 1u);
    let next = rest / size;
    offset += (rest - next * size) * P(P_reducedStrides + d - 1u);
    rest = next;
  }
  return offset;
//#endif
}
//#endif

// Reduces elements start, start + step, ... below end of the block at base.
fn reduceRun(base: u32, start: u32, end: u32, step: u32) -> Acc {
  var acc = Acc(/*IDENTITY*/, EMPTY);
//#if CHAIN
  chainStart();
//#elif RED1 && !READ_IDX
  // Read once, not per element: the compiler did not hoist it (a plain 4M sum: 116 -> 74 ms).
  let stride = P(P_reducedStrides);
//#endif
  for (var j = start; j < end; j += step) {
//#if CHAIN
    acc = fold(acc, chainAt(base + j), j);
//#elif READ_IDX
    let at = base + reducedOffset(j);
    acc = fold(acc, X[at], u32(X_IDX[at]));
//#elif RED1
    acc = fold(acc, X[base + j * stride], j);
//#else
    acc = fold(acc, X[base + reducedOffset(j)], j);
//#endif
  }
  return acc;
}

fn store(task: u32, acc: Acc) {
//#if WRITE_VAL
  OUT_VAL[task] = acc.v;
//#endif
//#if WRITE_IDX
  OUT_IDX[task] = i32(acc.i);
//#endif
}

//#if WORKGROUP
var<workgroup> sharedVal: array</*T*/, 64>;
var<workgroup> sharedIdx: array<u32, 64>;

@compute @workgroup_size(64)
fn main(
  @builtin(workgroup_id) wid: vec3<u32>,
  @builtin(num_workgroups) nwg: vec3<u32>,
  @builtin(local_invocation_index) lid: u32,
) {
  let task = flatGroup(wid, nwg);
  let chunks = P(P_chunks);
  if (task >= P(P_rows) * chunks) {
    return;
  }
  let row = task / chunks;
  let start = (task - row * chunks) * P(P_chunkLen);
  let end = min(P(P_inner), start + P(P_chunkLen));
  let acc = reduceRun(rowBase(row), start + lid, end, 64u);
  sharedVal[lid] = acc.v;
  sharedIdx[lid] = acc.i;
  for (var s = 32u; s > 0u; s >>= 1u) {
    workgroupBarrier();
    if (lid < s) {
      let merged = merge(Acc(sharedVal[lid], sharedIdx[lid]), Acc(sharedVal[lid + s], sharedIdx[lid + s]));
      sharedVal[lid] = merged.v;
      sharedIdx[lid] = merged.i;
    }
  }
  if (lid == 0u) {
    store(task, Acc(sharedVal[0], sharedIdx[0]));
  }
}
//#else
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let task = flatId(gid, nwg);
  let chunks = P(P_chunks);
  if (task >= P(P_rows) * chunks) {
    return;
  }
  let row = task / chunks;
  let start = (task - row * chunks) * P(P_chunkLen);
  let end = min(P(P_inner), start + P(P_chunkLen));
  store(task, reduceRun(rowBase(row), start, end, 1u));
}
//#endif
