/** The toolbar button `open-timing-panel` and the panel it opens (its kernel lives while open). */
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { TimingPanel } from './TimingPanel';
import type { TimingKernel } from './useTimingRun';

export function TimingPanelLauncher({ createKernel }: { createKernel: () => TimingKernel }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button"
        data-testid="open-timing-panel"
        aria-pressed={open}
        onClick={() => setOpen((o) => !o)}
      >
        CPU vs GPU
      </button>
      {/* In the body, not the toolbar: the toolbar's styling would clip a fixed drawer. */}
      {open &&
        createPortal(
          <TimingPanel createKernel={createKernel} onClose={() => setOpen(false)} />,
          document.body,
        )}
    </>
  );
}
