// A chain of element-wise ops in one pass (src/engine/backends/fusion/): what several
// elementwise.wgsl dispatches would compute, each step with that kernel's expression, compute
// type and output type, without the memory round trips between them. One invocation per element.
// backends/webgpu/fused.ts generates from the chain: BINDINGS (one storage array per output,
// then per input), STEPS (one function per op, as elementwise.wgsl's `op`), BODY (the loads, the
// steps in order and the stores of the outputs still wanted); RANK is the number of dimensions
// after merging, MAX_RANK the stride slots per input. Flag VEC4: the vector form of main.
// Flag CHAIN_FN: no entry point, but `chainAt(i)` (BODY for element i, returning REDUCED of type
// REDUCED_TYPE: one step's value, or a vector of several steps' values, one per reduction), which
// reduce.wgsl's CHAIN form calls for each element it reduces, and `chainStart()` (START), which it
// calls once per invocation first: it reads the broadcast inputs' values and the strided inputs'
// offsets and strides into private variables, so the loop over elements does not load them again
// (shader compilers did not hoist those loads: SwiftShader ran the linear-regression chains 2×
// slower with them in the loop).
// Params: FUSED in src/engine/backends/webgpu/param-layouts.ts (scalars as bits in their
// step's compute type).

/*BINDINGS*/

/*STEPS*/

// Element offset of flat index i in input k.
fn inputOffset(k: u32, i: u32) -> u32 {
  var offset = P(P_offsets + k);
  var rest = i;
  for (var d = /*RANK*/u; d > 0u; d--) {
    let size = P(P_shape + d - 1u);
    let next = rest / size;
    offset += (rest - next * size) * P(P_strides + k * /*MAX_RANK*/u + d - 1u);
    rest = next;
  }
  return offset;
}

fn scalarBits(k: u32) -> u32 {
  return P(P_scalars + k);
}

//#if CHAIN_FN
// Once per invocation, before its first chainAt (see CHAIN_FN above).
fn chainStart() {
/*START*/
}

fn chainAt(i: u32) -> /*REDUCED_TYPE*/ {
/*BODY*/
  return /*REDUCED*/;
}
//#elif VEC4
// Four elements per invocation, every input contiguous (4-aligned) or a broadcast scalar: BODY
// loads vectors, runs the steps per lane and stores vectors (the last, partial one merged).
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let q = flatId(gid, nwg);
  let n = P(P_n);
  if (q * 4u >= n) {
    return;
  }
/*BODY*/
}
//#else
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatId(gid, nwg);
  if (i >= P(P_n)) {
    return;
  }
/*BODY*/
}
//#endif
