/**
 * The Files panel (`files-panel`): the files torch.save wrote in this browser, each downloadable
 * as .safetensors (for `safetensors.torch.load_file` in Python) or deletable, and an upload
 * control that puts chosen files where torch.load finds them.
 */
import { useEffect, useRef } from 'react';
import { useAppStore } from '../../notebook/store/context';
import { formatBytes } from '../devices/format-bytes';
import { downloadName, MAX_UPLOAD_BYTES } from './file-names';
import { useStoredFiles } from './useStoredFiles';
import { Drawer } from '../drawer/Drawer';
import { useSnippets } from '../snippets/useSnippets';
import './files.css';

export function FilesPanel({ onClose }: { onClose: () => void }) {
  const { files, message, refresh, download, remove, upload } = useStoredFiles();
  useRefreshAfterRuns(refresh);
  const snippets = useSnippets();

  return (
    <Drawer
      name="files"
      label="Files"
      buttons={
        <button type="button" className="button" data-testid="refresh-files" onClick={refresh}>
          Refresh
        </button>
      }
      onClose={onClose}
    >
      <p className="muted files-help">
        What <code>{snippets.save}</code> wrote, kept in this browser; <code>{snippets.load}</code>{' '}
        reads one back. Files are safetensors: outside the browser,{' '}
        <code>safetensors.torch.load_file(path)</code> reads a download.
      </p>
      <label className="files-upload">
        Upload files (up to {MAX_UPLOAD_BYTES / 2 ** 20} MB each):{' '}
        <input
          type="file"
          multiple
          data-testid="upload-file"
          onChange={(event) => {
            const input = event.currentTarget;
            const chosen = [...(input.files ?? [])];
            // Cleared so choosing the same file again still fires a change.
            input.value = '';
            if (chosen.length) void upload(chosen);
          }}
        />
      </label>
      {message && (
        <p
          className={message.error ? 'files-message files-error' : 'files-message'}
          role={message.error ? 'alert' : 'status'}
          data-testid="files-message"
        >
          {message.text}
        </p>
      )}
      {files === null ? (
        <p className="muted">Reading the store…</p>
      ) : files.length === 0 ? (
        <p className="muted" data-testid="files-empty">
          No files yet.
        </p>
      ) : (
        <ul className="files-list">
          {files.map((file) => {
            const as = downloadName(file.name);
            return (
              <li key={file.name} className="files-item" data-testid="file-item">
                <span className="files-name" data-testid="file-name">
                  {file.name}
                </span>
                <span className="muted files-size">{formatBytes(file.size)}</span>
                <button
                  type="button"
                  className="button"
                  data-testid="download-file"
                  title={
                    as === file.name
                      ? `Download ${file.name}`
                      : `Downloads as ${as}: torch.save writes safetensors bytes, whatever the name`
                  }
                  onClick={() => void download(file.name)}
                >
                  Download
                </button>
                <button
                  type="button"
                  className="button button-quiet"
                  data-testid="delete-file"
                  title={`Delete ${file.name} from this browser`}
                  onClick={() => void remove(file.name)}
                >
                  Delete
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </Drawer>
  );
}

/** Re-reads the store each time the kernel goes back to idle: a cell may have saved a file. */
function useRefreshAfterRuns(refresh: () => Promise<void>): void {
  const state = useAppStore((s) => s.kernelState);
  const previous = useRef(state);
  useEffect(() => {
    if (previous.current === 'busy' && state === 'idle') void refresh();
    previous.current = state;
  }, [state, refresh]);
}
