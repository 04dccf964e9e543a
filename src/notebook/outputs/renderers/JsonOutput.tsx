/** An `application/json` output (IPython's `JSON(...)`, `_repr_json_`): the data as indented text. */
import { LongText } from '../LongText';
import type { OutputRendererProps } from '../registry';

export function JsonOutput({ data }: OutputRendererProps) {
  return <LongText text={JSON.stringify(data, null, 2) ?? String(data)} />;
}
