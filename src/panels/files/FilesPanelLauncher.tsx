/** The toolbar button `open-files-panel` and the Files panel it opens. */
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { FilesPanel } from './FilesPanel';

export function FilesPanelLauncher() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button"
        data-testid="open-files-panel"
        aria-pressed={open}
        onClick={() => setOpen((o) => !o)}
      >
        Files
      </button>
      {/* In the body: the toolbar's backdrop-filter makes it a containing block that clips fixed drawers. */}
      {open && createPortal(<FilesPanel onClose={() => setOpen(false)} />, document.body)}
    </>
  );
}
