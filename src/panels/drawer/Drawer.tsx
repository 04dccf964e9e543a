/**
 * The drawer the device, Files and timing panels open in (`NAME-panel`, with a `NAME-header` row
 * holding its title and its buttons), and the toolbar button that opens and closes one.
 */
import { useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { ToggleButton } from '../../notebook/ui/ToggleButton';
import './drawer.css';

export function Drawer({
  name,
  label,
  title = label,
  buttons,
  onClose,
  children,
}: {
  /** `device` gives the classes `device-panel` and `device-header` and the test id `device-panel`. */
  name: string;
  /** The drawer's accessible name. */
  label: string;
  /** Its heading, when that is not the label. */
  title?: string;
  /** The header's buttons, after the title. */
  buttons?: ReactNode;
  /** When given, the header ends with a Close button (test id `close-NAME-panel`) that calls it. */
  onClose?: () => void;
  children: ReactNode;
}) {
  return (
    <aside
      className={`panel-drawer ${name}-panel`}
      data-testid={`${name}-panel`}
      aria-label={label}
    >
      <header className={`panel-drawer-header ${name}-header`}>
        <h2>{title}</h2>
        {buttons}
        {onClose && (
          <button
            type="button"
            className="button"
            data-testid={`close-${name}-panel`}
            onClick={onClose}
          >
            Close
          </button>
        )}
      </header>
      {children}
    </aside>
  );
}

/**
 * The toolbar button `testId` (pressed while its drawer is open) and the drawer `render` gives,
 * handed the function that closes it.
 */
export function DrawerLauncher({
  testId,
  className = 'button',
  label,
  render,
}: {
  testId: string;
  className?: string;
  label: string;
  render: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <ToggleButton
        className={className}
        testId={testId}
        pressed={open}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
      </ToggleButton>
      {/* In the body: the toolbar's backdrop-filter makes it a containing block that clips fixed drawers. */}
      {open &&
        createPortal(
          render(() => setOpen(false)),
          document.body,
        )}
    </>
  );
}
