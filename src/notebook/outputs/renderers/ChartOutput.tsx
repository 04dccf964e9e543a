/**
 * The chart MIME type: a frame carrying the test hooks (`data-series`, `data-points`) drawn at
 * once, and the Recharts panels inside it loaded on first use (Recharts is large; notebooks
 * without charts never download it).
 */
import { lazy, memo, Suspense } from 'react';
import { chartPoints, chartSeriesNames, isChartData } from '../../../kernel/outputs/chart-data';
import type { ChartData } from '../../../kernel/protocol';
import type { OutputRendererProps } from '../registry';
import { PlainTextOutput } from './PlainTextOutput';
import './rich-outputs.css';

const ChartPanels = lazy(() => import('./ChartPanels'));

/** A chart anywhere in the app (outputs, panels): the frame with its hooks and its panels. */
export const ChartFrame = memo(function ChartFrame({ data }: { data: ChartData }) {
  return (
    <figure
      className="output-chart"
      data-testid="chart"
      data-series={chartSeriesNames(data).join(',')}
      data-points={chartPoints(data)}
    >
      {data.title && <figcaption className="output-chart-title">{data.title}</figcaption>}
      <Suspense fallback={<div className="output-chart-loading">Drawing chart…</div>}>
        <ChartPanels data={data} />
      </Suspense>
    </figure>
  );
});

export function ChartOutput(props: OutputRendererProps) {
  if (!isChartData(props.data)) {
    const text =
      props.output.kind === 'display' || props.output.kind === 'result'
        ? props.output.data['text/plain']
        : '';
    return <PlainTextOutput {...props} data={text} />;
  }
  return <ChartFrame data={props.data} />;
}
