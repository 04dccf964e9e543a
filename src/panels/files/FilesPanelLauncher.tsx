/** The toolbar button `open-files-panel` and the Files panel it opens. */
import { DrawerLauncher } from '../drawer/Drawer';
import { FilesPanel } from './FilesPanel';

export function FilesPanelLauncher() {
  return (
    <DrawerLauncher
      testId="open-files-panel"
      label="Files"
      render={(close) => <FilesPanel onClose={close} />}
    />
  );
}
