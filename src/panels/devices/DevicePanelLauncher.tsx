/** The toolbar button `open-device-panel` and the device panel it opens. */
import { DrawerLauncher } from '../drawer/Drawer';
import { DevicePanel } from './DevicePanel';
import { useDeviceState } from './device-state';

export function DevicePanelLauncher() {
  const lost = useDeviceState((s) => s.lost !== null);
  return (
    <DrawerLauncher
      testId="open-device-panel"
      className={`button${lost ? ' device-button-alert' : ''}`}
      label="Devices"
      render={(close) => <DevicePanel onClose={close} />}
    />
  );
}
