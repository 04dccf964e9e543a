/**
 * "Export for a cluster": asks the kernel for the DistributedDataParallel export of the open
 * Python notebook (ddp-export.ts), says what changes, what stays, what the reader needs installed
 * and which lines could not be translated, and downloads the `.zip`.
 */
import { useEffect, useRef, useState } from 'react';
import { downloadText, fileNameFor } from '../notebook/files/notebook-files';
import { useAppStoreApi } from '../notebook/store/context';
import { ddpZip, requestDdpExport, type DdpExport, type DdpLine } from './ddp-export';
import { ActionDialog } from './AppDialog';
import './persistence.css';
import './export-ddp.css';

type Stage =
  { kind: 'working' } | { kind: 'failed'; message: string } | { kind: 'ready'; result: DdpExport };

const where = (l: DdpLine) => `cell ${l.cell}${l.line ? `, line ${l.line}` : ''}`;

export function ExportDdpDialog({ onClose }: { onClose: () => void }) {
  const store = useAppStoreApi();
  const dialog = useRef<HTMLDialogElement>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'working' });

  useEffect(() => {
    let current = true;
    const { notebook, runHidden } = store.getState();
    if (!notebook) return;
    requestDdpExport(notebook, runHidden).then(
      (result) => current && setStage({ kind: 'ready', result }),
      (error: unknown) =>
        current &&
        setStage({
          kind: 'failed',
          message: error instanceof Error ? error.message : String(error),
        }),
    );
    return () => {
      current = false;
    };
  }, [store]);

  const download = () => {
    if (stage.kind !== 'ready') return;
    const title = store.getState().notebook?.title ?? 'notebook';
    downloadText(fileNameFor(`${title} ddp`, 'zip'), ddpZip(stage.result), 'application/zip');
  };

  const report = stage.kind === 'ready' ? stage.result.report : null;
  const tf = report?.framework === 'tensorflow';

  return (
    <ActionDialog
      name="export-ddp"
      dialogRef={dialog}
      title="Export for a cluster"
      action={{
        testId: 'export-ddp-download',
        label: 'Download .zip',
        disabled: stage.kind !== 'ready',
        onClick: download,
      }}
      onClose={onClose}
    >
      {stage.kind === 'working' && (
        <p className="muted" role="status">
          Rewriting the notebook in its kernel (after any cells still running or queued)…
        </p>
      )}
      {stage.kind === 'failed' && (
        <p className="share-warning" role="alert" data-testid="export-ddp-error">
          {stage.message}
        </p>
      )}
      {report && stage.kind === 'ready' && (
        <div className="export-ddp-body">
          <p>
            A <code>.zip</code> with <code>{report.scriptName}</code>, <code>README.md</code>,{' '}
            <code>requirements.txt</code>
            {stage.result.weights ? (
              <>
                {' '}
                and <code>weights.safetensors</code>: the notebook as a script for{' '}
                {tf ? (
                  <>
                    TensorFlow&apos;s <code>MultiWorkerMirroredStrategy</code>
                  </>
                ) : (
                  <>
                    real PyTorch <code>DistributedDataParallel</code>
                  </>
                )}
                , one process per {tf ? 'machine' : 'device'}, continuing from the weights trained
                here.
              </>
            ) : (
              <>: the notebook as a script for distributed training.</>
            )}
          </p>
          <p data-testid="export-ddp-model">
            Weights: {stage.result.weights ? report.model.why : `none (${report.model.why}).`}
          </p>
          <h3>What changes</h3>
          <ul>
            {tf ? (
              <>
                <li>
                  <code>MirroredStrategy</code> becomes <code>MultiWorkerMirroredStrategy</code>,
                  one worker per machine, configured by <code>TF_CONFIG</code>.
                </li>
                <li>
                  Printing and saving happen on the chief (worker 0) only; the global batch size
                  stays.
                </li>
                {stage.result.weights && report.model.name && (
                  <li>
                    <code>load_weights({report.model.name})</code> follows the line that makes the
                    model: it reads <code>weights.safetensors</code> with NumPy (in Keras&apos;s{' '}
                    <code>get_weights()</code> order) and calls <code>set_weights</code>, building
                    the model with the notebook&apos;s input shape first if needed.
                  </li>
                )}
              </>
            ) : (
              <>
                <li>
                  The process group comes from the environment (<code>nccl</code> with CUDA, else{' '}
                  <code>gloo</code>); <code>nn.DataParallel</code> becomes{' '}
                  <code>DistributedDataParallel</code> on each process&apos;s own device.
                </li>
                <li>
                  Each <code>DataLoader</code> gets a <code>DistributedSampler</code> and a
                  per-process batch size that keeps the notebook&apos;s global batch; epoch loops
                  call <code>set_epoch</code>.
                </li>
                <li>
                  Printing, progress bars and <code>torch.save</code> run on rank 0 only; saving
                  stores <code>.module</code>&apos;s weights.
                </li>
              </>
            )}
            <li>
              <code>display</code>, <code>timeit</code>, <code>compare_devices</code>,{' '}
              <code>plot_metric</code> and <code>params</code> become plain Python (text, no
              charts); <code>!pip</code> and <code>%</code> lines are dropped.
            </li>
            {report.changes.map((c) => (
              <li key={c}>{c}</li>
            ))}
            <li>
              The script is written back from Python&apos;s <code>ast</code>: the notebook&apos;s
              comments are not in it.
            </li>
          </ul>
          <h3>What stays</h3>
          <p>
            The model, loss, optimizer, data and loops; bundled datasets become the real{' '}
            <code>torchvision</code> (or Keras) calls, which download their data. The
            optimizer&apos;s state (momentum, Adam&apos;s moments) starts fresh.
          </p>
          <h3>What you need</h3>
          <p>
            Python 3 with{' '}
            {tf
              ? 'TensorFlow 2 (NumPy comes with it)'
              : 'PyTorch 1.13 or newer (CUDA builds include NCCL)'}{' '}
            and the packages in <code>requirements.txt</code>; launch with{' '}
            {tf ? (
              <>
                one process per machine, each with its <code>TF_CONFIG</code>
              </>
            ) : (
              <code>torchrun --nproc_per_node=N {report.scriptName}</code>
            )}{' '}
            (<code>README.md</code> has the steps).
          </p>
          <h3>Not translated</h3>
          {report.untranslated.length === 0 ? (
            <p data-testid="export-ddp-all-translated">Every line was translated.</p>
          ) : (
            <ul>
              {report.untranslated.map((u) => (
                <li key={`${u.cell}:${u.line}:${u.reason}`} data-testid="export-ddp-untranslated">
                  {where(u)}: <code>{u.code}</code> — {u.reason}
                </li>
              ))}
            </ul>
          )}
          {report.dropped.length > 0 && (
            <>
              <h3>Dropped</h3>
              <ul>
                {report.dropped.map((d) => (
                  <li key={`${d.cell}:${d.line}`} data-testid="export-ddp-dropped">
                    {where(d)}: <code>{d.code}</code>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </ActionDialog>
  );
}
