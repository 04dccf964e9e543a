/** stdout and stderr text (stderr tinted), escapes removed, long text cut to head and tail. */
import { LongText } from '../LongText';
import { STDERR_MIME, type OutputRendererProps } from '../registry';

export function StreamOutput({ mime, data }: OutputRendererProps) {
  const text = typeof data === 'string' ? data : String(data);
  return (
    <LongText text={text} className={mime === STDERR_MIME ? 'output-stderr' : 'output-stdout'} />
  );
}
