/**
 * The device panel (`device-panel`): live memory bars per device with an emptyCache button, the
 * physical GPUs with their limits and the logical GPUs made from them, and the settings form that
 * changes the split (applied by restarting the kernel with them).
 */
import { DeviceSettingsForm } from './DeviceSettingsForm';
import { AdapterList } from './AdapterList';
import { emptyKernelCache, useDeviceState } from './device-state';
import { MemoryBars } from './MemoryBars';
import { Drawer } from '../drawer/Drawer';
import { useSnippets } from '../snippets/useSnippets';
import './devices.css';

export function DevicePanel({ onClose }: { onClose: () => void }) {
  const report = useDeviceState((s) => s.report);
  const memory = useDeviceState((s) => s.memory);
  const lost = useDeviceState((s) => s.lost);
  const snippets = useSnippets();
  return (
    <Drawer name="device" label="Devices" onClose={onClose}>
      {lost && (
        <p className="device-problem" role="alert" data-testid="device-lost">
          {lost.device} was lost ({lost.reason}). The kernel recreated{' '}
          {lost.recovered.join(', ') || lost.device}; tensors that lived on it are gone.
        </p>
      )}
      <section>
        <h3>Memory</h3>
        <MemoryBars memory={memory} />
        <button
          type="button"
          className="button"
          data-testid="empty-cache"
          onClick={() => emptyKernelCache()}
        >
          Empty cache
        </button>{' '}
        <span className="muted device-help">
          returns freed buffers kept for reuse, as <code>{snippets.emptyCache}</code>; a cell reads
          the bytes in use with <code>{snippets.memoryAllocated}</code>
        </span>
      </section>
      <section>
        <h3>GPUs</h3>
        {report ? (
          <AdapterList report={report} />
        ) : (
          <p className="muted">Waiting for the kernel…</p>
        )}
      </section>
      {report && report.physical.length > 0 && (
        <section>
          <h3>Configuration</h3>
          <DeviceSettingsForm key={JSON.stringify(report.settings)} report={report} />
        </section>
      )}
    </Drawer>
  );
}
