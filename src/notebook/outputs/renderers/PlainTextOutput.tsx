/** The text/plain rendering every MIME bundle carries: the fallback for any output. */
import { LongText } from '../LongText';
import type { OutputRendererProps } from '../registry';

export function PlainTextOutput({ data }: OutputRendererProps) {
  return <LongText text={typeof data === 'string' ? data : JSON.stringify(data, null, 2)} />;
}
