/**
 * Recharts drawing of chart data: one small chart per panel, lines over a numeric x axis (each
 * series with its own points; detail lines thin and unmarked) or bars by category. Animations
 * are off so a live chart redraws cheaply four times a second.
 */
import { memo } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { ChartData, ChartPanelData } from '../../../kernel/protocol';

// Blue then red first, as the chapters' matplotlib plots draw train ('bo--') and val ('ro-').
const COLORS = ['#1a73e8', '#d93025', '#188038', '#f29900', '#9334e6', '#12b5cb', '#e52592'];
const DETAIL_COLOR = '#9db8e8';
const WIDTH = 420;
const HEIGHT = 240;
const MARKERS_UP_TO = 60;

function formatTick(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-3 || abs >= 1e5)) return value.toExponential(1);
  return String(Number(value.toPrecision(4)));
}

const LinePanel = memo(function LinePanel({ panel }: { panel: ChartPanelData }) {
  let color = 0;
  return (
    <LineChart width={WIDTH} height={HEIGHT} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
      <CartesianGrid strokeDasharray="3 3" stroke="#e3e7ec" />
      <XAxis
        type="number"
        dataKey="x"
        domain={[panel.xMin ?? 'dataMin', panel.xMax ?? 'dataMax']}
        allowDecimals
        tickFormatter={formatTick}
        label={
          panel.xLabel
            ? { value: panel.xLabel, position: 'insideBottomRight', offset: -4 }
            : undefined
        }
        fontSize={11}
      />
      <YAxis
        type="number"
        domain={[panel.yMin ?? 'auto', panel.yMax ?? 'auto']}
        tickFormatter={formatTick}
        width={48}
        fontSize={11}
      />
      <Tooltip
        formatter={(value) => (typeof value === 'number' ? formatTick(value) : String(value))}
      />
      <Legend wrapperStyle={{ fontSize: 12 }} />
      {panel.series.map((s) => {
        const stroke = s.detail ? DETAIL_COLOR : COLORS[color++ % COLORS.length];
        return (
          <Line
            key={s.name}
            name={s.name}
            data={s.points.map(([x, y]) => ({ x, y }))}
            dataKey="y"
            type="linear"
            stroke={stroke}
            strokeWidth={s.detail ? 1 : 2}
            strokeDasharray={s.dashed ? '6 4' : undefined}
            dot={!s.detail && s.points.length <= MARKERS_UP_TO ? { r: 3 } : false}
            isAnimationActive={false}
          />
        );
      })}
    </LineChart>
  );
});

const BarPanel = memo(function BarPanel({ panel }: { panel: ChartPanelData }) {
  const length = Math.max(0, ...panel.series.map((s) => s.points.length));
  const rows = Array.from({ length }, (_, i) => {
    const row: Record<string, number | string> = { name: panel.categories?.[i] ?? String(i) };
    for (const s of panel.series) {
      const point = s.points.find(([x]) => x === i);
      if (point) row[s.name] = point[1];
    }
    return row;
  });
  return (
    <BarChart
      width={WIDTH}
      height={HEIGHT}
      data={rows}
      margin={{ top: 8, right: 16, bottom: 8, left: 0 }}
    >
      <CartesianGrid strokeDasharray="3 3" stroke="#e3e7ec" />
      <XAxis dataKey="name" fontSize={11} />
      <YAxis
        domain={[panel.yMin ?? 0, panel.yMax ?? 'auto']}
        tickFormatter={formatTick}
        width={48}
        fontSize={11}
        label={
          panel.yLabel
            ? { value: panel.yLabel, angle: -90, position: 'insideLeft', fontSize: 11 }
            : undefined
        }
      />
      <Tooltip
        formatter={(value) => (typeof value === 'number' ? formatTick(value) : String(value))}
      />
      {panel.series.map((s, i) => (
        <Bar
          key={s.name}
          name={s.name}
          dataKey={s.name}
          fill={COLORS[i % COLORS.length]}
          isAnimationActive={false}
        />
      ))}
    </BarChart>
  );
});

export default function ChartPanels({ data }: { data: ChartData }) {
  return (
    <div className="output-chart-panels">
      {data.panels.map((panel, i) => (
        <div className="output-chart-panel" key={`${panel.title ?? ''}-${i}`}>
          {panel.title && data.panels.length > 1 && (
            <div className="output-chart-panel-title">{panel.title}</div>
          )}
          {panel.kind === 'bar' ? <BarPanel panel={panel} /> : <LinePanel panel={panel} />}
        </div>
      ))}
    </div>
  );
}
