/**
 * The open notebook's file actions, shown in the toolbar: share a link (`share-button`), download
 * as `.ipynb` (`export-ipynb`) or as a script (`export-ts`: `.ts`, or `.py` for Python notebooks),
 * and for Python notebooks the export for real distributed training (`export-ddp`).
 */
import { useState } from 'react';
import { notebookLanguage, type Notebook } from '../notebook/model';
import { useAppStore, useAppStoreApi } from '../notebook/store/context';
import { downloadIpynb, downloadScript } from './downloads';
import { ExportDdpDialog } from './ExportDdpDialog';
import { ShareDialog } from './ShareDialog';

export function NotebookFileActions() {
  const store = useAppStoreApi();
  const [sharing, setSharing] = useState(false);
  const [exportingDdp, setExportingDdp] = useState(false);
  const python = useAppStore(
    (s) => (s.notebook ? notebookLanguage(s.notebook) : null) === 'python',
  );

  // Read at click time: these need the notebook as it is now, not a re-render per keystroke.
  const withNotebook = (action: (notebook: Notebook) => void) => () => {
    const notebook = store.getState().notebook;
    if (notebook) action(notebook);
  };

  return (
    <>
      <button
        type="button"
        className="button button-quiet"
        data-testid="share-button"
        onClick={() => setSharing(true)}
      >
        Share
      </button>
      <button
        type="button"
        className="button button-quiet"
        data-testid="export-ipynb"
        title="Download as a Jupyter notebook (.ipynb)"
        onClick={withNotebook(downloadIpynb)}
      >
        .ipynb
      </button>
      <button
        type="button"
        className="button button-quiet"
        data-testid="export-ts"
        title={`Download the code as a ${python ? 'Python' : 'TypeScript'} file`}
        onClick={withNotebook(downloadScript)}
      >
        {python ? '.py' : '.ts'}
      </button>
      {python && (
        <button
          type="button"
          className="button button-quiet"
          data-testid="export-ddp"
          title="Export for a cluster: a script for real PyTorch DistributedDataParallel (or TensorFlow MultiWorkerMirroredStrategy) with the notebook's weights, as a .zip"
          onClick={() => setExportingDdp(true)}
        >
          Cluster .zip
        </button>
      )}
      {sharing && <ShareDialog onClose={() => setSharing(false)} />}
      {exportingDdp && <ExportDdpDialog onClose={() => setExportingDdp(false)} />}
    </>
  );
}
