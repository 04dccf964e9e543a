/**
 * The timing panel's "Benchmark this device": a button, the progress line, the results table
 * (GFLOPS, % of the adapter's measured FMA peak, GPU-vs-CPU ratio per case) and "Copy as
 * Markdown", so results from real GPUs can be shared.
 */
import { useState } from 'react';
import { BENCHMARK_COLUMNS, benchmarkCells } from '../../engine/benchmark/report';
import type { DeviceBenchmark } from './useDeviceBenchmark';

type CopyState = 'idle' | 'copied' | 'manual';

export function DeviceBenchmarkSection({
  benchmark,
  ready,
}: {
  benchmark: DeviceBenchmark;
  ready: boolean;
}) {
  const { status, report, markdown } = benchmark;
  // What was copied (or shown to copy by hand): a new report starts idle again.
  const [copied, setCopied] = useState<{ state: CopyState; text: string | null }>({
    state: 'idle',
    text: null,
  });
  const copy: CopyState = copied.text === markdown ? copied.state : 'idle';

  const copyMarkdown = async () => {
    if (!markdown) return;
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(markdown);
      setCopied({ state: 'copied', text: markdown });
    } catch {
      // No clipboard permission: show the text selected for Ctrl+C instead.
      setCopied({ state: 'manual', text: markdown });
    }
  };

  return (
    <section className="timing-benchmark device-benchmark" data-status={status}>
      <h3>
        Benchmark this device{' '}
        <button
          type="button"
          className="button"
          data-testid="benchmark-device"
          data-state={status}
          disabled={!ready || status === 'running'}
          onClick={benchmark.start}
        >
          {status === 'running'
            ? 'Benchmarking…'
            : status === 'idle'
              ? 'Run benchmark'
              : 'Run again'}
        </button>
      </h3>
      <p className="timing-chapter muted">
        The benchmark’s matrix products and training steps on this GPU and on the CPU, with the
        adapter’s FMA peak measured by a register-only kernel (and again beside each product, which
        its % of peak is against): share the table to compare devices.
      </p>
      {status === 'running' && <p className="muted">{benchmark.progress || 'Starting…'}</p>}
      {benchmark.error && <p className="timing-warning">{benchmark.error}</p>}
      {report && (
        <div data-testid="benchmark-results" data-peak-gflops={report.peakGflops ?? ''}>
          <p className="timing-adapter">
            Adapter <strong>{report.adapter}</strong>:{' '}
            {report.peakGflops !== null
              ? `measured FMA peak ${report.peakGflops.toFixed(2)} GFLOPS`
              : `no FMA peak measured${report.peakError ? ` (${report.peakError})` : ''}`}
          </p>
          <table className="device-benchmark-table">
            <thead>
              <tr>
                {BENCHMARK_COLUMNS.map((c) => (
                  <th key={c}>{c}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {benchmarkCells(report).map((cells) => (
                <tr key={cells[0]}>
                  {cells.map((cell, i) => (
                    <td key={BENCHMARK_COLUMNS[i]}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <button
            type="button"
            className="button button-quiet"
            data-testid="benchmark-copy"
            data-state={copy}
            onClick={() => void copyMarkdown()}
          >
            {copy === 'copied' ? 'Copied' : 'Copy as Markdown'}
          </button>
          {copy === 'manual' && (
            <textarea
              className="device-benchmark-markdown"
              readOnly
              value={markdown ?? ''}
              aria-label="Benchmark as Markdown"
              ref={(el) => el?.select()}
            />
          )}
        </div>
      )}
    </section>
  );
}
