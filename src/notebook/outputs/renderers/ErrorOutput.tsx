/** An error: "ename: evalue" and the traceback lines that point into cells, in red. */
import { stripAnsi } from '../text';
import type { OutputRendererProps } from '../registry';

interface ErrorData {
  ename: string;
  evalue: string;
  traceback: string[];
}

function isErrorData(data: unknown): data is ErrorData {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  return typeof d.ename === 'string' && typeof d.evalue === 'string' && Array.isArray(d.traceback);
}

export function ErrorOutput({ data }: OutputRendererProps) {
  if (!isErrorData(data)) return <pre className="output-text output-error">{String(data)}</pre>;
  const lines = data.traceback.map((line) => stripAnsi(String(line)));
  const traceback = lines.join('\n');
  // A Python traceback names the error on a line of its own (as Jupyter stores it): shown once.
  const { ename } = data;
  if (lines.some((line) => line === ename || line.startsWith(`${ename}:`))) {
    return (
      <pre className="output-text output-error" role="alert">
        {traceback}
      </pre>
    );
  }
  return (
    <pre className="output-text output-error" role="alert">
      <span className="output-error-name">{data.ename}</span>
      {data.evalue ? `: ${stripAnsi(data.evalue)}` : ''}
      {traceback ? `\n${traceback}` : ''}
    </pre>
  );
}
