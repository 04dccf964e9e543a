/**
 * The share dialog: a `#nb=` link to the notebook as it is now (`share-link`), how long it is, and
 * past COMFORTABLE_LINK_CHARS a warning that offers the `.ipynb` download instead. Outputs stay out
 * of the link unless the box is ticked.
 */
import { useEffect, useRef, useState } from 'react';
import { COMFORTABLE_LINK_CHARS } from '../notebook/links/payload-codec';
import { buildShareLink, type ShareLink } from '../notebook/links/share-link';
import { useAppStoreApi } from '../notebook/store/context';
import { downloadIpynb } from './downloads';
import { ActionDialog } from './AppDialog';
import './persistence.css';

const appUrl = () => new URL(import.meta.env.BASE_URL, window.location.origin).href;

export function ShareDialog({ onClose }: { onClose: () => void }) {
  const store = useAppStoreApi();
  const dialog = useRef<HTMLDialogElement>(null);
  const [includeOutputs, setIncludeOutputs] = useState(false);
  const [link, setLink] = useState<ShareLink | null>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    let current = true;
    const notebook = store.getState().notebook;
    if (!notebook) return;
    void buildShareLink(notebook, { includeOutputs, appUrl: appUrl() }).then((built) => {
      if (current) setLink(built);
    });
    return () => {
      current = false;
    };
  }, [store, includeOutputs]);

  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link.url);
      setCopied(true);
    } catch {
      // No clipboard permission: leave the link selected for Ctrl+C.
      const input = dialog.current?.querySelector('input[type=text]');
      if (input instanceof HTMLInputElement) input.select();
    }
  };

  const download = () => {
    const notebook = store.getState().notebook;
    if (notebook) downloadIpynb(notebook);
  };

  return (
    <ActionDialog
      name="share"
      dialogRef={dialog}
      title="Share this notebook"
      action={{
        testId: 'share-copy',
        label: copied ? 'Copied' : 'Copy link',
        disabled: !link,
        onClick: () => void copy(),
      }}
      onClose={onClose}
    >
      <p className="muted">
        The notebook travels inside the link itself: nothing is uploaded. Whoever opens it gets
        their own copy, and its code runs only after they agree.
      </p>
      <input
        type="text"
        className="share-link"
        data-testid="share-link"
        readOnly
        value={link?.url ?? ''}
        aria-label="Share link"
        onFocus={(event) => event.target.select()}
      />
      <label className="share-option">
        <input
          type="checkbox"
          data-testid="share-include-outputs"
          checked={includeOutputs}
          onChange={(event) => {
            setCopied(false);
            setIncludeOutputs(event.target.checked);
          }}
        />
        Include outputs
      </label>
      {link && (
        <p className="share-length" data-testid="share-length" data-length={link.length}>
          The link is {link.length.toLocaleString('en-US')} characters long.
        </p>
      )}
      {link && !link.comfortable && (
        <p className="share-warning" data-testid="share-too-long" role="status">
          Links longer than {COMFORTABLE_LINK_CHARS.toLocaleString('en-US')} characters are often
          cut off by chat apps, mail and some browsers.{' '}
          {includeOutputs ? 'Leave the outputs out, or send' : 'Send'} the notebook as a file
          instead:{' '}
          <button type="button" className="link-button" onClick={download}>
            download the .ipynb
          </button>
          .
        </p>
      )}
    </ActionDialog>
  );
}
