/**
 * The app's modal dialogs: the `<dialog>` frame (`NAME-dialog`, labelled by its `NAME-title`
 * heading), and the dialog that opens as it mounts and ends with Close and its one action.
 */
import { useEffect, type ReactNode, type RefObject } from 'react';
import './persistence.css';

export function AppDialog({
  name,
  dialogRef,
  className,
  onClose,
  onCancel,
  children,
}: {
  name: string;
  dialogRef: RefObject<HTMLDialogElement | null>;
  /** Classes besides `app-dialog`. */
  className?: string;
  onClose?: () => void;
  onCancel?: () => void;
  children: ReactNode;
}) {
  return (
    <dialog
      ref={dialogRef}
      className={className ? `app-dialog ${className}` : 'app-dialog'}
      data-testid={`${name}-dialog`}
      aria-labelledby={`${name}-title`}
      onClose={onClose}
      onCancel={onCancel}
    >
      {children}
    </dialog>
  );
}

/** The primary button of a dialog's actions. */
export interface DialogAction {
  testId: string;
  label: ReactNode;
  disabled: boolean;
  onClick: () => void;
}

/** A dialog (class `NAME-dialog` too) shown as it mounts: its title, `children`, Close and `action`. */
export function ActionDialog({
  name,
  dialogRef,
  title,
  action,
  onClose,
  children,
}: {
  name: string;
  dialogRef: RefObject<HTMLDialogElement | null>;
  title: ReactNode;
  action: DialogAction;
  onClose: () => void;
  children: ReactNode;
}) {
  useEffect(() => {
    dialogRef.current?.showModal();
  }, [dialogRef]);
  return (
    <AppDialog name={name} dialogRef={dialogRef} className={`${name}-dialog`} onClose={onClose}>
      <h2 id={`${name}-title`}>{title}</h2>
      {children}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={() => dialogRef.current?.close()}>
          Close
        </button>
        <button
          type="button"
          className="button button-primary"
          data-testid={action.testId}
          disabled={action.disabled}
          onClick={action.onClick}
        >
          {action.label}
        </button>
      </div>
    </AppDialog>
  );
}
