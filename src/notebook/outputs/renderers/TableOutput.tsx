/**
 * The table MIME type as an HTML table made of React elements, laid out as pandas shows a
 * DataFrame (row index, numbers right-aligned); long tables show their top rows.
 */
import { useState } from 'react';
import type { TableData } from '../../../kernel/protocol';
import type { OutputRendererProps } from '../registry';
import { PlainTextOutput } from './PlainTextOutput';

const ROWS_SHOWN = 100;

export function isTableData(data: unknown): data is TableData {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  return (
    Array.isArray(d.columns) &&
    d.columns.every((c) => typeof c === 'string') &&
    Array.isArray(d.rows) &&
    d.rows.every((r) => Array.isArray(r))
  );
}

/** Numbers as a DataFrame shows them: integers whole, others to 4 significant digits. */
export function formatCell(value: unknown): string {
  if (typeof value === 'number') {
    return Number.isInteger(value) || !Number.isFinite(value)
      ? String(value)
      : String(Number(value.toPrecision(4)));
  }
  if (value === null) return 'null';
  if (value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Columns holding only numbers (and blanks) are right-aligned, header included, as in pandas. */
function numericColumns(data: TableData): boolean[] {
  return data.columns.map((_, c) => {
    const values = data.rows
      .map((r) => r[c])
      .filter((v) => v !== null && v !== undefined && v !== '');
    return values.length > 0 && values.every((v) => typeof v === 'number');
  });
}

export function TableOutput(props: OutputRendererProps) {
  const [showAll, setShowAll] = useState(false);
  const { data } = props;
  if (!isTableData(data)) return <PlainTextOutput {...props} data={JSON.stringify(data)} />;
  const rows = showAll ? data.rows : data.rows.slice(0, ROWS_SHOWN);
  const numeric = numericColumns(data);
  return (
    <div className="output-table-wrap">
      <table className="output-table">
        <thead>
          <tr>
            <th className="output-table-index" />
            {data.columns.map((column, i) => (
              <th key={i} scope="col" className={numeric[i] ? 'numeric' : undefined}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={r}>
              <th scope="row" className="output-table-index">
                {r}
              </th>
              {data.columns.map((_, c) => (
                <td key={c} className={typeof row[c] === 'number' ? 'numeric' : undefined}>
                  {formatCell(row[c])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length < data.rows.length && (
        <button
          type="button"
          className="output-show-all"
          data-label={`${(data.rows.length - rows.length).toLocaleString('en-US')} more rows · show all`}
          aria-label="show all rows"
          onClick={() => setShowAll(true)}
        />
      )}
    </div>
  );
}
