/** The toolbar button `open-timing-panel` and the panel it opens (its kernel lives while open). */
import { DrawerLauncher } from '../drawer/Drawer';
import { TimingPanel } from './TimingPanel';
import type { TimingKernel } from './useTimingRun';

export function TimingPanelLauncher({ createKernel }: { createKernel: () => TimingKernel }) {
  return (
    <DrawerLauncher
      testId="open-timing-panel"
      label="CPU vs GPU"
      render={(close) => <TimingPanel createKernel={createKernel} onClose={close} />}
    />
  );
}
