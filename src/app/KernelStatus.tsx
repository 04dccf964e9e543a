/** The kernel's state (`kernel-status`) and the backend it computes on (`backend-badge`). */
import { useAppStore } from '../notebook/store/context';

const STATE_TEXT = {
  starting: 'Starting…',
  idle: 'Idle',
  busy: 'Busy',
  dead: 'No kernel',
} as const;

export function KernelStatus() {
  const state = useAppStore((s) => s.kernelState);
  return (
    <span
      className="kernel-status"
      data-testid="kernel-status"
      data-state={state}
      role="status"
      title={`Kernel: ${STATE_TEXT[state]}`}
    >
      <span className="kernel-status-dot" aria-hidden="true" />
      {STATE_TEXT[state]}
    </span>
  );
}

export function BackendBadge() {
  const info = useAppStore((s) => s.kernelInfo);
  if (!info) return null;
  const title =
    info.backend === 'webgpu'
      ? `WebGPU${info.adapter ? `: ${info.adapter}` : ''}`
      : 'This browser has no WebGPU adapter: everything runs on the CPU backend.';
  return (
    <>
      <span
        className={`backend-badge backend-${info.backend}`}
        data-testid="backend-badge"
        title={title}
      >
        {info.backend}
      </span>
      {info.backend === 'cpu' && (
        <span className="backend-note">No WebGPU here: running on the CPU</span>
      )}
    </>
  );
}
