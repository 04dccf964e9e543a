/**
 * The app's settings (`settings-dialog`): the Python package base URL, checked as it is typed
 * (`package-base-error`), saved with `settings-save`, back to Pyodide's CDN with
 * `package-base-reset`. Only this page's UI changes it: never a link, never notebook code.
 */
import { useRef, useState } from 'react';
import { ActionDialog } from '../AppDialog';
import {
  checkPackageBase,
  DEFAULT_PACKAGE_BASE,
  readPackageBase,
  savePackageBase,
} from './package-base';
import './settings.css';

export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState(readPackageBase);
  const [saveError, setSaveError] = useState<string | null>(null);
  const check = checkPackageBase(text);
  const unchanged = check.ok && check.url === readPackageBase();

  const save = () => {
    if (!check.ok) return;
    try {
      savePackageBase(check.url);
      dialog.current?.close();
    } catch (error) {
      setSaveError(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <ActionDialog
      name="settings"
      dialogRef={dialog}
      title="Settings"
      action={{
        testId: 'settings-save',
        label: 'Save',
        disabled: !check.ok || unchanged,
        onClick: save,
      }}
      onClose={onClose}
    >
      <label className="settings-field" htmlFor="package-base-input">
        Python package base URL
      </label>
      <p className="muted settings-help">
        Where this page downloads Python packages (numpy, pandas, matplotlib, …) when a Python cell
        imports one: the folder holding Pyodide&apos;s <code>pyodide-lock.json</code> and its
        wheels. Every wheel is checked against the lock&apos;s SHA-256 and kept in this browser. The
        default is Pyodide&apos;s CDN; a mirror or a local server works too. Notebook code cannot
        change this.
      </p>
      <div className="settings-row">
        <input
          id="package-base-input"
          type="url"
          className="settings-input"
          data-testid="package-base-input"
          spellCheck={false}
          value={text}
          aria-invalid={!check.ok}
          aria-describedby="package-base-error"
          onChange={(event) => {
            setSaveError(null);
            setText(event.target.value);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') save();
          }}
        />
        <button
          type="button"
          className="button button-quiet"
          data-testid="package-base-reset"
          title={DEFAULT_PACKAGE_BASE}
          disabled={text.trim() === DEFAULT_PACKAGE_BASE}
          onClick={() => {
            setSaveError(null);
            setText(DEFAULT_PACKAGE_BASE);
          }}
        >
          Reset to default
        </button>
      </div>
      <p
        id="package-base-error"
        className="settings-error"
        data-testid="package-base-error"
        role="alert"
      >
        {saveError ?? (check.ok ? '' : check.message)}
      </p>
    </ActionDialog>
  );
}
