/** The toolbar button `open-device-panel` and the device panel it opens. */
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { DevicePanel } from './DevicePanel';
import { useDeviceState } from './device-state';

export function DevicePanelLauncher() {
  const [open, setOpen] = useState(false);
  const lost = useDeviceState((s) => s.lost !== null);
  return (
    <>
      <button
        type="button"
        className={`button${lost ? ' device-button-alert' : ''}`}
        data-testid="open-device-panel"
        aria-pressed={open}
        onClick={() => setOpen((o) => !o)}
      >
        Devices
      </button>
      {/* In the body: the toolbar is a containing block that would clip a fixed drawer. */}
      {open && createPortal(<DevicePanel onClose={() => setOpen(false)} />, document.body)}
    </>
  );
}
