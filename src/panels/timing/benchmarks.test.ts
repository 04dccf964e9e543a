import { afterAll, describe, expect, it } from 'vitest';
import * as api from '../../api';
import { setRootProvider } from '../../engine';
import { setAssetReader } from '../../engine/data/datasets';
import { builtDataReader } from '../../engine/data/datasets/built-data.testing';
import { startTestSession } from '../../kernel/testing/session-harness';
import { TABLE_MIME, CHART_MIME, type CellOutput, type TableData } from '../../kernel/protocol';
import { benchmarks, SMALL_SIZES } from './benchmarks';

afterAll(() => {
  setAssetReader(null);
  setRootProvider(null);
});

describe('timing panel benchmarks', () => {
  it('run as cells against the cell API and time the cpu', async () => {
    setAssetReader(builtDataReader());
    const kernel = startTestSession(
      async () => ({
        info: { backend: 'cpu', adapter: null, cooperativeInterrupt: false },
        globals: { ...api },
        setRoots: (roots) => setRootProvider(roots),
      }),
      {},
    );
    const tiny = {
      ...SMALL_SIZES,
      matmul: 32,
      regressionSamples: 200,
      regressionSteps: 3,
      mnistBatch: 4,
      mnistSteps: 2,
      repeat: 2,
    };
    for (const b of benchmarks(tiny)) {
      const { cellId, done } = kernel.run(b.code);
      await done;
      const outputs: CellOutput[] = kernel.outputsOf(cellId);
      const errors = outputs.filter((o) => o.kind === 'error');
      expect(errors, `${b.id}: ${JSON.stringify(errors)}`).toEqual([]);
      const table = outputs.flatMap((o) =>
        o.kind === 'display' && o.data[TABLE_MIME] ? [o.data[TABLE_MIME] as TableData] : [],
      );
      expect(table).toHaveLength(1);
      expect(table[0].columns).toEqual([
        'device',
        'adapter',
        'median_ms',
        'min_ms',
        'max_ms',
        'speedup',
      ]);
      expect(table[0].rows.map((r) => r[0])).toEqual(['cpu']);
      expect(table[0].rows[0][5]).toBe(1);
      expect(outputs.some((o) => o.kind === 'display' && o.data[CHART_MIME])).toBe(true);
    }
  }, 120_000);
});
