/** The banner shown in the notebook after the kernel was restarted, replaced or gave up. */
import { useAppStore } from '../store/context';

export function KernelNotice() {
  const notice = useAppStore((s) => s.kernelNotice);
  const dismiss = useAppStore((s) => s.dismissKernelNotice);
  if (!notice) return null;
  return (
    <div
      className={`kernel-notice kernel-notice-${notice.reason}`}
      role="status"
      data-testid="kernel-notice"
    >
      <span className="kernel-notice-message">{notice.message}</span>
      <span className="kernel-notice-detail">{notice.detail}</span>
      <button type="button" className="link-button" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}
