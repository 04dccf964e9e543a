import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as layouts from './param-layouts';
import { paramLayout, type LayoutSpec, type ParamLayout } from './params';
import { ParamBlock } from './uniforms';

const KERNELS = new URL('../../../../kernels/', import.meta.url);

/** Which layout each kernel file reads (common.wgsl reads none). */
const FAMILY: Record<string, ParamLayout<LayoutSpec>> = {
  'adam.wgsl': layouts.ADAM,
  'col2im.wgsl': layouts.COL2IM,
  'elementwise.wgsl': layouts.ELEMENTWISE,
  'fill.wgsl': layouts.FILL,
  'fused-elementwise.wgsl': layouts.FUSED,
  'gather-scatter.wgsl': layouts.GATHER_SCATTER,
  'im2col.wgsl': layouts.IM2COL,
  'index-add.wgsl': layouts.INDEX_ROWS,
  'index-select.wgsl': layouts.INDEX_ROWS,
  'matmul-blocked.wgsl': layouts.MATMUL,
  'matmul-tiled.wgsl': layouts.MATMUL,
  'matmul.wgsl': layouts.MATMUL,
  'pad.wgsl': layouts.PAD,
  'pool-backward-disjoint.wgsl': layouts.POOL_BACKWARD,
  'pool-backward.wgsl': layouts.POOL_BACKWARD,
  'pool.wgsl': layouts.POOL,
  'random.wgsl': layouts.RANDOM,
  'reduce.wgsl': layouts.REDUCE,
  'softmax-cross-entropy.wgsl': layouts.SOFTMAX_CROSS_ENTROPY,
  'softmax.wgsl': layouts.SOFTMAX,
  // Area A: indexing, scans and sorts along the last dim.
  'gather-along.wgsl': layouts.GATHER_ALONG,
  'scan.wgsl': layouts.SCAN,
  'sort.wgsl': layouts.SORT,
  // Area B: normalisation.
  'norm.wgsl': layouts.NORM,
  // Area D: recurrent layers.
  'lstm-cell.wgsl': layouts.LSTM_CELL,
  'gru-cell.wgsl': layouts.GRU_CELL,
  // Attention weights.
  'scale-mask-softmax.wgsl': layouts.SCALE_MASK_SOFTMAX,
};

describe('named parameter slots', () => {
  it('lay fields out in order and generate one WGSL constant per field', () => {
    const layout = paramLayout('test', { n: 'u32', strides: ['i32', 3], scale: 'f32' });
    expect(layout.slots).toEqual({ n: 0, strides: 1, scale: 4 });
    expect(layout.wgsl).toBe('const P_n = 0u;\nconst P_strides = 1u;\nconst P_scale = 4u;');
    expect(() => paramLayout('big', { a: ['u32', 60], b: ['u32', 5] })).toThrow(
      'big: parameters take 65 words, a block holds 64',
    );
  });

  it('write each field in its declared word type', () => {
    const layout = paramLayout('test', { n: 'u32', strides: ['i32', 3], scale: 'f32' });
    const block = new ParamBlock();
    block.words = new Uint32Array(8);
    layout.writer(block).set('n', 7).list('strides', [-1, 2]).set('scale', 0.5);
    expect(Array.from(block.words.slice(0, 5))).toEqual([7, 0xffffffff, 2, 0, 0x3f000000]);
    // @ts-expect-error a name the layout does not declare
    expect(() => layout.writer(block).set('m', 1)).toThrow();
    // @ts-expect-error a list field is written with list()
    layout.writer(block).set('strides', 1);
    expect(() => layout.writer(block).list('strides', [1, 2, 3, 4])).toThrow(
      'test: strides holds 3 words, got 4',
    );
  });

  it('are what every kernel file reads: no numbered slots, no undeclared names', () => {
    const files = readdirSync(KERNELS).filter((f) => f.endsWith('.wgsl') && f !== 'common.wgsl');
    expect(files.sort()).toEqual(Object.keys(FAMILY).sort());
    for (const file of files) {
      const text = readFileSync(new URL(file, KERNELS), 'utf8');
      expect(text, file).not.toMatch(/\bP[FI]?\(\d/);
      const names = new Set([...text.matchAll(/\bP_(\w+)/g)].map((m) => m[1]));
      expect(names.size, file).toBeGreaterThan(0);
      for (const name of names)
        expect(FAMILY[file].slots, `${file}: P_${name}`).toHaveProperty(name);
    }
  });
});
