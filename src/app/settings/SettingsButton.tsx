/** Opens the settings dialog (`open-settings`): on the home page and in the notebook toolbar. */
import { useState } from 'react';
import { SettingsDialog } from './SettingsDialog';

export function SettingsButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button button-quiet"
        data-testid="open-settings"
        title="Settings: where Python packages come from"
        onClick={() => setOpen(true)}
      >
        Settings
      </button>
      {open && <SettingsDialog onClose={() => setOpen(false)} />}
    </>
  );
}
