/** A GPU profile: which ops took the GPU's time, with a bar for each op's share. */
import type { ProfileData } from '../../../kernel/protocol';
import type { OutputRendererProps } from '../registry';
import { PlainTextOutput } from './PlainTextOutput';
import './rich-outputs.css';

function isProfileData(value: unknown): value is ProfileData {
  return typeof value === 'object' && value !== null && Array.isArray((value as ProfileData).rows);
}

function ms(value: number): string {
  if (value < 1) return `${Number((value * 1000).toPrecision(3))} µs`;
  return `${Number(value.toPrecision(3))} ms`;
}

export function ProfileOutput(props: OutputRendererProps) {
  const { data } = props;
  if (!isProfileData(data)) return <PlainTextOutput {...props} data={JSON.stringify(data)} />;
  return (
    <div className="output-profile" data-testid="profile">
      <div className="output-profile-title">
        GPU profile of {data.device} ({data.adapter}): {data.dispatches} dispatches,{' '}
        {ms(data.gpuMs)} of GPU time in {ms(data.wallMs)}
      </div>
      <table className="output-table">
        <thead>
          <tr>
            <th scope="col">op</th>
            <th scope="col" className="numeric">
              calls
            </th>
            <th scope="col" className="numeric">
              GPU total
            </th>
            <th scope="col" className="numeric">
              GPU mean
            </th>
            <th scope="col">share</th>
          </tr>
        </thead>
        <tbody>
          {data.rows.map((row) => (
            <tr key={row.op}>
              <td>{row.op}</td>
              <td className="numeric">{row.calls}</td>
              <td className="numeric">{ms(row.totalMs)}</td>
              <td className="numeric">{ms(row.meanUs / 1000)}</td>
              <td>
                <span className="output-profile-share">
                  <span style={{ width: `${Math.min(100, row.percent)}%` }} />
                </span>
                {row.percent.toFixed(1)}%
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {data.note && <p className="output-profile-note">{data.note}</p>}
    </div>
  );
}
