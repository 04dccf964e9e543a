/**
 * One bar per device (`memory-bar`): bytes held by live tensors against the device's limit, with
 * the pooled (cached) bytes beside them and a mark at the peak. Without a limit the bar is scaled
 * to what the device has used, and `data-limit-bytes` is empty. Bytes of tensors that step sweeps
 * moved to host memory (unused for two steps; brought back on their next use) are shown as a
 * figure, not on the bar: they no longer take device memory.
 */
import type { MemorySnapshot } from '../../kernel/protocol';
import { formatBytes } from './format-bytes';

function percent(part: number, whole: number): string {
  return `${Math.min(100, (100 * part) / whole).toFixed(2)}%`;
}

function MemoryBar({ snapshot }: { snapshot: MemorySnapshot }) {
  const { device, inUse, peak, limit, pooled, spilled } = snapshot;
  const scale = limit ?? Math.max(peak, inUse + pooled, 1);
  return (
    <li
      className="memory-bar"
      data-testid="memory-bar"
      data-device={device}
      data-used-bytes={inUse}
      data-limit-bytes={limit ?? ''}
      data-peak-bytes={peak}
      data-pooled-bytes={pooled}
      data-spilled-bytes={spilled}
    >
      <div className="memory-bar-label">
        <span className="memory-bar-device">{device}</span>
        <span>
          {formatBytes(inUse)} {limit === null ? '(no limit)' : `of ${formatBytes(limit)}`}
        </span>
      </div>
      <div
        className="memory-bar-track"
        role="meter"
        aria-label={`${device} memory in use`}
        aria-valuemin={0}
        aria-valuemax={scale}
        aria-valuenow={inUse}
      >
        <div className="memory-bar-used" style={{ width: percent(inUse, scale) }} />
        <div
          className="memory-bar-pooled"
          style={{ left: percent(inUse, scale), width: percent(pooled, scale) }}
        />
        {peak > 0 && <div className="memory-bar-peak" style={{ left: percent(peak, scale) }} />}
      </div>
      <div className="memory-bar-detail muted">
        peak {formatBytes(peak)} · cached {formatBytes(pooled)} ·{' '}
        <span title="Tensors unused for two training steps, moved to host memory until their next use">
          on host {formatBytes(spilled)}
        </span>
      </div>
    </li>
  );
}

export function MemoryBars({ memory }: { memory: readonly MemorySnapshot[] }) {
  if (memory.length === 0) return <p className="muted">Waiting for the kernel…</p>;
  return (
    <ul className="memory-bars">
      {memory.map((snapshot) => (
        <MemoryBar key={snapshot.device} snapshot={snapshot} />
      ))}
    </ul>
  );
}
