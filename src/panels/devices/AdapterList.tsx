/**
 * The physical GPUs (WebGPU adapters) with their main limits and features, and the logical GPUs
 * carved out of them — what `tf.config.listPhysicalDevices` and `listLogicalDevices` would show
 * (spelled in the notebook's language).
 */
import type { DeviceReport, PhysicalGpuReport } from '../../kernel/protocol';
import { useSnippets } from '../snippets/useSnippets';
import { formatBytes } from './format-bytes';

/** The limits that matter for compute, in this order; the rest sit behind "all limits". */
const MAIN_LIMITS: [string, boolean][] = [
  ['maxBufferSize', true],
  ['maxStorageBufferBindingSize', true],
  ['maxComputeWorkgroupStorageSize', true],
  ['maxComputeInvocationsPerWorkgroup', false],
  ['maxComputeWorkgroupSizeX', false],
  ['maxComputeWorkgroupsPerDimension', false],
];

function Adapter({ gpu }: { gpu: PhysicalGpuReport }) {
  return (
    <li className="adapter" data-testid="adapter">
      <div className="adapter-title">
        <strong>{gpu.name}</strong> {gpu.label}
        {gpu.visible ? null : <span className="adapter-tag">hidden</span>}
      </div>
      <div className="muted">
        {[gpu.vendor, gpu.architecture, `${gpu.powerPreference} adapter`]
          .filter(Boolean)
          .join(' · ')}
      </div>
      {gpu.fallback && (
        <p className="adapter-warning">
          A CPU emulation of a GPU (SwiftShader): it runs WebGPU correctly but at CPU speed.
        </p>
      )}
      <dl className="adapter-limits">
        {MAIN_LIMITS.filter(([name]) => name in gpu.limits).map(([name, bytes]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>
              {bytes ? formatBytes(gpu.limits[name]) : gpu.limits[name].toLocaleString('en-US')}
            </dd>
          </div>
        ))}
      </dl>
      <details>
        <summary>All limits and features</summary>
        <dl className="adapter-limits">
          {Object.entries(gpu.limits).map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{value.toLocaleString('en-US')}</dd>
            </div>
          ))}
        </dl>
        <p className="adapter-features">{gpu.features.join(', ') || 'no optional features'}</p>
      </details>
    </li>
  );
}

export function AdapterList({ report }: { report: DeviceReport }) {
  const snippets = useSnippets();
  if (report.physical.length === 0) {
    return (
      <p className="muted">
        No GPU here ({report.unavailable ?? 'no WebGPU adapter'}): everything runs on the CPU.
      </p>
    );
  }
  return (
    <>
      <p className="muted device-help">
        <code>{snippets.listPhysicalDevices}</code> lists these.
      </p>
      <ul className="adapters">
        {report.physical.map((gpu) => (
          <Adapter key={gpu.index} gpu={gpu} />
        ))}
      </ul>
      <h4>Logical GPUs</h4>
      <p className="muted device-help">
        <code>{snippets.listLogicalDevices}</code>; place tensors on one with{' '}
        <code>{snippets.deviceScope}</code> or <code>{snippets.toDevice}</code>.
      </p>
      {report.logical.length === 0 ? (
        <p className="muted">None: {report.unavailable}</p>
      ) : (
        <ul className="logical-gpus" data-testid="logical-gpus">
          {report.logical.map((gpu) => (
            <li key={gpu.name} data-device={gpu.name}>
              <strong>{gpu.name}</strong> ({gpu.tfName}) on GPU:{gpu.physical ?? '?'} ·{' '}
              {gpu.memoryLimit === null ? 'no limit' : `limit ${formatBytes(gpu.memoryLimit)}`}
              {gpu.lost && <span className="adapter-tag">lost: {gpu.lost}</span>}
            </li>
          ))}
        </ul>
      )}
      {report.initialized && (
        <p className="muted">
          In use since the first GPU tensor: cells can no longer change this configuration (as in
          TensorFlow); the settings below apply by restarting the kernel.
        </p>
      )}
    </>
  );
}
