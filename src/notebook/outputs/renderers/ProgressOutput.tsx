/** A progress bar output: a drawn bar with the tqdm (or Keras) text beside it, updated in place. */
import type { ProgressData } from '../../../kernel/protocol';
import { progressTail } from '../../../kernel/outputs/progress-format';
import type { OutputRendererProps } from '../registry';
import { PlainTextOutput } from './PlainTextOutput';
import './rich-outputs.css';

function isProgressData(value: unknown): value is ProgressData {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<ProgressData>;
  return typeof v.value === 'number' && (v.max === null || typeof v.max === 'number');
}

export function ProgressOutput(props: OutputRendererProps) {
  const { data } = props;
  if (!isProgressData(data)) return <PlainTextOutput {...props} data={JSON.stringify(data)} />;
  const max = data.max !== null && data.max > 0 ? data.max : null;
  const fraction = max ? Math.min(1, Math.max(0, data.value / max)) : null;
  return (
    <div
      className={`output-progress${data.done ? ' is-done' : ''}`}
      data-testid="progress"
      data-value={data.value}
      data-max={max ?? ''}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={max ?? undefined}
      aria-valuenow={data.value}
      aria-label={data.desc ?? 'progress'}
    >
      {data.desc && <span className="output-progress-desc">{data.desc}</span>}
      <span className={`output-progress-track${fraction === null ? ' is-open' : ''}`}>
        <span className="output-progress-fill" style={{ width: `${(fraction ?? 1) * 100}%` }} />
      </span>
      {fraction !== null && (
        <span className="output-progress-percent">{Math.round(fraction * 100)}%</span>
      )}
      <span className="output-progress-text">{progressTail(data)}</span>
    </div>
  );
}
