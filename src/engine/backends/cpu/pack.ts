/**
 * Packing GEMM operands into the WASM kernel's panel layouts: A as panels of MR rows stored
 * k-major ([k][MR]), B as panels of NR columns stored k-major ([k][NR]), zero-padded to whole
 * panels and to the padded K. Operands are logical 2-D matrices over strided storage whose rows
 * (or columns) may come in groups — how a batch folds into M (per-image products sharing B) or
 * into K (a sum of per-image products is one product with the images' K concatenated).
 */

/**
 * Element (r, c) lives at data[offset + rowAt(r) + colAt(c)], with
 * rowAt(r) = floor(r / rowGroup) * rowGroupStride + (r % rowGroup) * rowStride, colAt alike.
 */
export interface Matrix {
  data: Float32Array;
  offset: number;
  rows: number;
  cols: number;
  rowGroup: number;
  rowGroupStride: number;
  rowStride: number;
  colGroup: number;
  colGroupStride: number;
  colStride: number;
}

/** A plain strided matrix (no groups). */
export function matrix(
  data: Float32Array,
  offset: number,
  rows: number,
  cols: number,
  rowStride: number,
  colStride: number,
): Matrix {
  return {
    data,
    offset,
    rows,
    cols,
    rowGroup: Math.max(rows, 1),
    rowGroupStride: 0,
    rowStride,
    colGroup: Math.max(cols, 1),
    colGroupStride: 0,
    colStride,
  };
}

/** Offsets (from x.offset) of `count` consecutive indices from `first` along one grouped axis. */
function offsets(
  first: number,
  count: number,
  group: number,
  groupStride: number,
  stride: number,
  out: Int32Array,
): void {
  let g = Math.floor(first / group);
  let i = first - g * group;
  for (let t = 0; t < count; t++) {
    out[t] = g * groupStride + i * stride;
    if (++i === group) {
      i = 0;
      g++;
    }
  }
}

const columnOffsets = (x: Matrix, c0: number, count: number, out: Int32Array): void =>
  offsets(c0, count, x.colGroup, x.colGroupStride, x.colStride, out);
const rowOffsets = (x: Matrix, r0: number, count: number, out: Int32Array): void =>
  offsets(r0, count, x.rowGroup, x.rowGroupStride, x.rowStride, out);

/** Rows of B per packing block (see packB). */
const ROW_BLOCK = 64;

let colScratch = new Int32Array(0);
let kScratch = new Int32Array(0);
const rowScratch = new Int32Array(64);

/**
 * Packs rows [r0, r0 + panels × mr) of `a` (rows past its end are zeros) as `panels` A panels
 * of kPad k steps each, at heap[at...].
 */
export function packA(
  a: Matrix,
  r0: number,
  panels: number,
  mr: number,
  kPad: number,
  heap: Float32Array,
  at: number,
): void {
  const k = a.cols;
  if (colScratch.length < k) colScratch = new Int32Array(k);
  const cols = colScratch;
  columnOffsets(a, 0, k, cols);
  const src = a.data;
  const ro = rowScratch;
  for (let p = 0; p < panels; p++) {
    const base = at + p * kPad * mr;
    const first = r0 + p * mr;
    const valid = Math.max(0, Math.min(mr, a.rows - first));
    rowOffsets(a, first, valid, ro);
    for (let r = 0; r < valid; r++) ro[r] += a.offset;
    if (valid === mr && mr === 6) {
      // The FMA kernel's panel height, unrolled: this loop moves most of the CNN's A operands.
      const [o0, o1, o2, o3, o4, o5] = [ro[0], ro[1], ro[2], ro[3], ro[4], ro[5]];
      for (let c = 0, t = base; c < k; c++, t += 6) {
        const co = cols[c];
        heap[t] = src[o0 + co];
        heap[t + 1] = src[o1 + co];
        heap[t + 2] = src[o2 + co];
        heap[t + 3] = src[o3 + co];
        heap[t + 4] = src[o4 + co];
        heap[t + 5] = src[o5 + co];
      }
    } else if (valid === mr && mr === 4) {
      const [o0, o1, o2, o3] = [ro[0], ro[1], ro[2], ro[3]];
      for (let c = 0, t = base; c < k; c++, t += 4) {
        const co = cols[c];
        heap[t] = src[o0 + co];
        heap[t + 1] = src[o1 + co];
        heap[t + 2] = src[o2 + co];
        heap[t + 3] = src[o3 + co];
      }
    } else {
      for (let c = 0, t = base; c < k; c++, t += mr) {
        const co = cols[c];
        for (let r = 0; r < valid; r++) heap[t + r] = src[ro[r] + co];
        for (let r = valid; r < mr; r++) heap[t + r] = 0;
      }
    }
    heap.fill(0, base + k * mr, base + kPad * mr);
  }
}

/**
 * Packs all columns of `b` (K = b.rows) as ceil(n / nr) B panels of kPad k steps each, at
 * heap[at...]; columns past its end are zeros.
 */
export function packB(b: Matrix, nr: number, kPad: number, heap: Float32Array, at: number): void {
  const k = b.rows;
  const n = b.cols;
  const panels = Math.ceil(n / nr);
  const src = b.data;
  const co = rowScratch;
  if (kScratch.length < k) kScratch = new Int32Array(k);
  const rows = kScratch;
  rowOffsets(b, 0, k, rows);
  const rowMajor8 = nr === 8 && b.colStride === 1 && b.colGroup >= n;
  // Rows in blocks, all panels per block: a block of B's rows stays in cache while the panels
  // take their slices (panel by panel over all of K would touch a new page on every row).
  for (let p0 = 0; p0 < k; p0 += ROW_BLOCK) {
    const p1 = Math.min(k, p0 + ROW_BLOCK);
    for (let q = 0; q < panels; q++) {
      const first = q * nr;
      const valid = Math.min(nr, n - first);
      let t = at + (q * kPad + p0) * nr;
      if (rowMajor8 && valid === 8) {
        for (let p = p0; p < p1; p++, t += 8) {
          const s = b.offset + rows[p] + first;
          heap[t] = src[s];
          heap[t + 1] = src[s + 1];
          heap[t + 2] = src[s + 2];
          heap[t + 3] = src[s + 3];
          heap[t + 4] = src[s + 4];
          heap[t + 5] = src[s + 5];
          heap[t + 6] = src[s + 6];
          heap[t + 7] = src[s + 7];
        }
      } else {
        columnOffsets(b, first, valid, co);
        for (let p = p0; p < p1; p++, t += nr) {
          const s = b.offset + rows[p];
          for (let j = 0; j < valid; j++) heap[t + j] = src[s + co[j]];
          for (let j = valid; j < nr; j++) heap[t + j] = 0;
        }
      }
    }
  }
  for (let q = 0; q < panels; q++) heap.fill(0, at + (q * kPad + k) * nr, at + (q + 1) * kPad * nr);
}
