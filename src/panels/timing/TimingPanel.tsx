/**
 * The CPU-vs-GPU panel: runs the chapters' three comparisons on the cpu and every GPU with one
 * click, shows each one's table of times and speed-ups and its bar chart, and says what the
 * adapter is — plainly, when it is a CPU emulation whose "GPU" times are really CPU times.
 */
import { isEmulatedAdapter } from '../../kernel/outputs/emulated-adapter';
import type { KernelInfo } from '../../kernel/protocol';
import { DeviceBenchmarkSection } from './DeviceBenchmarkSection';
import { PanelOutputs } from './PanelOutputs';
import { useDeviceBenchmark } from './useDeviceBenchmark';
import { useTimingRun, type RunStatus, type TimingKernel } from './useTimingRun';
import { Drawer } from '../drawer/Drawer';
import { useSnippets } from '../snippets/useSnippets';
import './timing-panel.css';

const STATUS_TEXT: Record<RunStatus, string> = {
  waiting: 'waiting',
  running: 'running…',
  done: 'done',
  error: 'failed',
};

function AdapterNote({ info }: { info: KernelInfo | null }) {
  if (!info) return <p className="timing-adapter muted">Starting a kernel for the timings…</p>;
  if (info.backend !== 'webgpu') {
    return (
      <p className="timing-adapter timing-warning" data-emulated="false">
        No WebGPU adapter here ({info.adapter ?? 'none'}): only the CPU is timed.
      </p>
    );
  }
  const adapter = info.adapter ?? 'unknown adapter';
  if (isEmulatedAdapter(adapter)) {
    return (
      <p className="timing-adapter timing-warning" data-emulated="true">
        The GPU here is <strong>{adapter}</strong>: SwiftShader, a CPU emulation of a GPU. Its “GPU”
        times are this computer’s CPU running GPU code — they say nothing about how fast a real GPU
        is. Sizes are kept small so the comparisons finish.
      </p>
    );
  }
  return (
    <p className="timing-adapter" data-emulated="false">
      GPU: <strong>{adapter}</strong>
    </p>
  );
}

export function TimingPanel({
  createKernel,
  onClose,
}: {
  createKernel: () => TimingKernel;
  onClose: () => void;
}) {
  const run = useTimingRun(createKernel, true);
  const benchmark = useDeviceBenchmark(run.kernel);
  const snippets = useSnippets();
  return (
    <Drawer
      name="timing"
      label="CPU vs GPU timings"
      title="CPU vs GPU"
      buttons={
        <>
          <button
            type="button"
            className="button"
            data-testid="run-timing"
            disabled={!run.ready || run.running}
            onClick={run.start}
          >
            {run.running ? 'Running…' : run.runs.length > 0 ? 'Run again' : 'Run'}
          </button>
          <button
            type="button"
            className="button button-quiet"
            aria-label="Close"
            onClick={onClose}
          >
            ✕
          </button>
        </>
      }
    >
      <AdapterNote info={run.info} />
      <DeviceBenchmarkSection benchmark={benchmark} ready={run.ready} />
      <p className="timing-help muted">
        Each comparison runs once untimed (compiling kernels, moving data), then several timed runs
        that wait for the device to finish; the table shows the median. A cell times its own code
        the same way with <code>{snippets.compareDevices}</code>; a clock alone (
        <code>{snippets.clock}</code>) stops before queued GPU work is done.
      </p>
      {run.runs.map((r) => (
        <section
          key={r.benchmark.id}
          className="timing-benchmark"
          data-benchmark={r.benchmark.id}
          data-status={r.status}
        >
          <h3>
            {r.benchmark.title}{' '}
            <span className={`timing-status is-${r.status}`}>{STATUS_TEXT[r.status]}</span>
          </h3>
          <p className="timing-chapter muted">{r.benchmark.chapter}</p>
          <PanelOutputs outputs={r.outputs} />
        </section>
      ))}
    </Drawer>
  );
}
