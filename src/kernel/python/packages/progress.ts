/**
 * The text of a cell's package display: one line per package it loads, as the loader goes
 * ("Loading numpy 2.4.6 (3.0 MB)… 45%", then "Loaded numpy 2.4.6 (3.0 MB)"). Plain text, so a
 * saved notebook keeps it as any other output.
 */
import type { LockEntry } from './lock';

export type PackagePhase = 'waiting' | 'loading' | 'installing' | 'loaded' | 'failed';

export interface PackageProgress {
  entry: LockEntry;
  phase: PackagePhase;
  loaded: number;
  total: number | null;
  fromCache: boolean;
  /** For 'failed': a few words on why (the import error says the rest). */
  why?: string;
}

/** Bytes as people read them: `512 B`, `40.2 kB`, `3.0 MB` (powers of 1000, as pip shows). */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

export function progressLine(state: PackageProgress): string {
  const { entry, phase, loaded, total, fromCache } = state;
  const label = `${entry.name} ${entry.version}`;
  const size = total ?? loaded;
  const sized = size > 0 ? ` (${formatSize(size)})` : '';
  switch (phase) {
    case 'waiting':
      return `Loading ${label}…`;
    case 'loading':
      return total
        ? `Loading ${label}${sized}… ${Math.floor((100 * loaded) / total)}%`
        : `Loading ${label}… ${formatSize(loaded)}`;
    case 'installing':
      return `Installing ${label}${sized}…`;
    case 'loaded':
      return fromCache ? `Loaded ${label} (from cache)` : `Loaded ${label}${sized}`;
    case 'failed':
      return `Could not load ${label}${state.why ? `: ${state.why}` : ''}`;
  }
}

export function progressText(states: PackageProgress[]): string {
  return states.map(progressLine).join('\n');
}
