/**
 * The fused attention weights (ops/scale-mask-softmax.ts) against a float64 reference on every
 * test device: forward and scores' gradient with no mask, a broadcast bool mask (one row fully
 * masked: uniform, as the -1e30 composition gave), a broadcast float mask, causal (L ≠ S), odd
 * row lengths and more than 4 dims.
 */
import { describe, it } from 'vitest';
import { fromHost } from './creation';
import { mul } from './elementwise';
import { sum } from './reduce';
import { scaleMaskSoftmax } from './scale-mask-softmax';
import { numel } from '../shape';
import { testDevices } from '../testing/devices';
import { expectClose, rng } from '../testing/harness';

const devices = await testDevices();
const MASKED = -1e30;

interface Case {
  name: string;
  shape: number[];
  scale: number;
  mask?: { shape: number[]; bool: boolean };
  causal?: boolean;
}

const cases: Case[] = [
  { name: 'no mask', shape: [2, 3, 5], scale: 0.7 },
  { name: 'bool mask', shape: [2, 2, 3, 5], scale: 0.5, mask: { shape: [3, 5], bool: true } },
  { name: 'float mask', shape: [2, 3, 7], scale: 1.3, mask: { shape: [2, 1, 7], bool: false } },
  { name: 'causal', shape: [2, 4, 6], scale: 0.9, causal: true },
  {
    name: '5-D',
    shape: [2, 1, 2, 3, 5],
    scale: 0.4,
    mask: { shape: [2, 1, 1, 1, 5], bool: false },
  },
];

/** Index of `idx` (of `shape`) in a tensor of `mshape` broadcast to it. */
function maskIndex(idx: number[], shape: number[], mshape: number[]): number {
  const lead = shape.length - mshape.length;
  let k = 0;
  for (let d = 0; d < mshape.length; d++) k = k * mshape[d] + (mshape[d] === 1 ? 0 : idx[d + lead]);
  return k;
}

function reference(c: Case, s: number[], m: number[] | null, up: number[]) {
  const C = c.shape[c.shape.length - 1];
  const L = c.shape[c.shape.length - 2];
  const rows = s.length / C;
  const y = new Array<number>(s.length);
  const ds = new Array<number>(s.length);
  for (let r = 0; r < rows; r++) {
    const v: number[] = [];
    for (let j = 0; j < C; j++) {
      let x = c.scale * s[r * C + j];
      if (m && c.mask) {
        // the flat index → multi-index of the scores
        const idx: number[] = [];
        let rest = r * C + j;
        for (let d = c.shape.length - 1; d >= 0; d--) {
          idx.unshift(rest % c.shape[d]);
          rest = Math.floor(rest / c.shape[d]);
        }
        const mv = m[maskIndex(idx, c.shape, c.mask.shape)];
        x += c.mask.bool ? (mv !== 0 ? 0 : MASKED) : mv;
      }
      if (c.causal && j > r % L) x += MASKED;
      v.push(x);
    }
    const max = Math.max(...v);
    const e = v.map((x) => Math.exp(x - max));
    const total = e.reduce((a, b) => a + b, 0);
    let dot = 0;
    for (let j = 0; j < C; j++) {
      y[r * C + j] = e[j] / total;
      dot += up[r * C + j] * y[r * C + j];
    }
    for (let j = 0; j < C; j++) ds[r * C + j] = c.scale * y[r * C + j] * (up[r * C + j] - dot);
  }
  return { y, ds };
}

describe('scaleMaskSoftmax', () => {
  for (const c of cases) {
    it.each(devices)(`${c.name}: matches float64 forward and backward on %s`, async (device) => {
      const rand = rng(c.shape.length * 7 + c.shape[c.shape.length - 1]);
      const n = numel(c.shape);
      const values = (k: number) => Array.from({ length: k }, () => Math.fround(rand() * 6 - 3));
      const [s, up] = [values(n), values(n)];
      let m: number[] | null = null;
      let mask = null;
      if (c.mask) {
        const k = numel(c.mask.shape);
        if (c.mask.bool) {
          // row 1 fully masked, the rest about a third masked
          m = Array.from({ length: k }, (_, i) =>
            Math.floor(i / 5) === 1 ? 0 : rand() < 0.35 ? 0 : 1,
          );
          mask = fromHost(Int32Array.from(m), c.mask.shape, { device });
        } else {
          m = values(k);
          mask = fromHost(Float32Array.from(m), c.mask.shape, { device });
        }
      }
      const want = reference(c, s, m, up);
      const scores = fromHost(Float32Array.from(s), c.shape, { device, requiresGrad: true });
      const y = scaleMaskSoftmax(scores, c.scale, mask, c.causal ?? false);
      expectClose(await y.data(), want.y, 'y', 1e-5);
      sum(mul(y, fromHost(Float32Array.from(up), c.shape, { device }))).backward();
      expectClose(await scores.grad!.data(), want.ds, 'scores grad', 1e-4);
    });
  }
});
