import { describe, expect, it } from 'vitest';
import type { LockEntry } from './lock';
import { formatSize, progressText, type PackageProgress } from './progress';

const entry = (name: string, version: string): LockEntry => ({
  name,
  version,
  file_name: `${name}-${version}-py3-none-any.whl`,
  sha256: '',
  imports: [name],
  depends: [],
});

describe('package progress text', () => {
  it('sizes as pip shows them', () => {
    expect([999, 1000, 40_240, 3_012_345].map(formatSize)).toEqual([
      '999 B',
      '1.0 kB',
      '40.2 kB',
      '3.0 MB',
    ]);
  });

  it('one line per package, from loading to loaded, cached or failed', () => {
    const base = { loaded: 0, total: null, fromCache: false };
    const states: PackageProgress[] = [
      {
        ...base,
        entry: entry('numpy', '2.4.6'),
        phase: 'loading',
        loaded: 1_350_000,
        total: 3_000_000,
      },
      { ...base, entry: entry('six', '1.17.0'), phase: 'loading', loaded: 20_000 },
      { ...base, entry: entry('pytz', '2025.2'), phase: 'waiting' },
      { ...base, entry: entry('scipy', '1.16'), phase: 'loaded', total: 30_500_000 },
      { ...base, entry: entry('pandas', '3.0.2'), phase: 'loaded', fromCache: true },
      { ...base, entry: entry('x', '1'), phase: 'failed', why: 'offline' },
    ];
    expect(progressText(states).split('\n')).toEqual([
      'Loading numpy 2.4.6 (3.0 MB)… 45%',
      'Loading six 1.17.0… 20.0 kB',
      'Loading pytz 2025.2…',
      'Loaded scipy 1.16 (30.5 MB)',
      'Loaded pandas 3.0.2 (from cache)',
      'Could not load x 1: offline',
    ]);
  });
});
