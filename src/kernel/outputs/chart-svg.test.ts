import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { ChartData } from '../protocol';
import { chartSvg, escapeXml, SVG_LAYOUT } from './chart-svg';

const PYTHON = '/usr/bin/python3';

interface Element {
  tag: string;
  attrs: Record<string, string>;
  text: string;
  children: Element[];
}

/** Parses the SVG with a strict XML parser (CPython's expat): throws when it is not well-formed. */
function parseXml(svg: string): Element {
  const script = [
    'import json, sys, xml.etree.ElementTree as ET',
    'def walk(e): return {"tag": e.tag.split("}")[-1], "attrs": dict(e.attrib), "text": e.text or "", "children": [walk(c) for c in e]}',
    'print(json.dumps(walk(ET.fromstring(sys.stdin.read()))))',
  ].join('\n');
  const result = spawnSync(PYTHON, ['-c', script], { input: svg, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`not well-formed XML:\n${result.stderr}`);
  return JSON.parse(result.stdout) as Element;
}

const pythonMissing = spawnSync(PYTHON, ['-c', 'import xml.etree.ElementTree']).status !== 0;

function all(root: Element, tag: string): Element[] {
  return [...(root.tag === tag ? [root] : []), ...root.children.flatMap((c) => all(c, tag))];
}

const NAME = 'a<b & "c" \'d\'';

function lineChart(points: [number, number][]): ChartData {
  return {
    title: 'Training <fit> & "more"\u0001',
    panels: [
      {
        title: 'loss',
        kind: 'line',
        xLabel: 'epoch <x>',
        xMin: 0,
        xMax: 4,
        yMin: 0,
        yMax: 1,
        series: [{ name: NAME, points }],
      },
    ],
  };
}

describe('chartSvg', () => {
  it('escapes text for XML and drops characters XML forbids', () => {
    expect(escapeXml(`<a href="x">&'\u0000\uD800b</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&amp;&apos;b&lt;/a&gt;',
    );
  });

  it.skipIf(pythonMissing)(
    'draws a small series as well-formed SVG with the points where the axes put them',
    () => {
      const svg = chartSvg(
        lineChart([
          [0, 0],
          [2, 0.5],
          [4, 1],
          [3, Number.NaN],
        ]),
      );
      expect(svg).not.toContain('<fit>');
      expect(svg).not.toContain('\u0001');
      const root = parseXml(svg);
      expect(root.tag).toBe('svg');
      expect(all(root, 'title')[0].text).toBe('Training <fit> & "more"');
      const texts = all(root, 'text').map((t) => t.text);
      expect(texts).toContain('Training <fit> & "more"');
      expect(texts).toContain('epoch <x>');
      expect(texts).toContain(NAME);

      // One panel, so no panel title: the plot spans plotLeft..plotRight and plotTop..bottom.
      const L = SVG_LAYOUT;
      const bottom = L.panelHeight - L.plotBottomMargin;
      const [series] = all(root, 'g').filter((g) => g.attrs['data-series'] !== undefined);
      expect(series.attrs['data-series']).toBe(NAME);
      const [line] = all(series, 'polyline');
      const points = line.attrs.points.split(' ').map((p) => p.split(',').map(Number));
      // x 0, 2, 4 on [0, 4]; y 0, 0.5, 1 on [0, 1]; the NaN point is left out.
      expect(points).toEqual([
        [L.plotLeft, bottom],
        [(L.plotLeft + L.plotRight) / 2, (L.plotTop + bottom) / 2],
        [L.plotRight, L.plotTop],
      ]);
      expect(all(series, 'circle').map((c) => [Number(c.attrs.cx), Number(c.attrs.cy)])).toEqual(
        points,
      );
      // The chart's title sits above the panel, which is moved down by its height.
      const panel = all(root, 'g').find((g) => g.attrs.transform?.startsWith('translate'));
      expect(panel?.attrs.transform).toBe(`translate(0 ${L.titleHeight})`);
    },
  );

  it.skipIf(pythonMissing)(
    'takes in points beyond fixed axis ends, draws bars and empty charts, all well-formed',
    () => {
      const over = parseXml(
        chartSvg(
          lineChart([
            [0, 0.5],
            [4, 1.5],
          ]),
        ),
      );
      const bottom = SVG_LAYOUT.panelHeight - SVG_LAYOUT.plotBottomMargin;
      for (const [x, y] of all(over, 'polyline')[0]
        .attrs.points.split(' ')
        .map((p) => p.split(',').map(Number))) {
        expect(x).toBeGreaterThanOrEqual(SVG_LAYOUT.plotLeft);
        expect(x).toBeLessThanOrEqual(SVG_LAYOUT.plotRight);
        expect(y).toBeGreaterThanOrEqual(SVG_LAYOUT.plotTop);
        expect(y).toBeLessThanOrEqual(bottom);
      }

      const bars = parseXml(
        chartSvg({
          panels: [
            {
              kind: 'bar',
              categories: ['cpu', 'gpu <0>'],
              yLabel: 's',
              series: [
                {
                  name: 'time',
                  points: [
                    [0, 2],
                    [1, 0.5],
                  ],
                },
                { name: 'other', points: [[0, 1]] },
              ],
            },
          ],
        }),
      );
      const rects = all(bars, 'rect').filter((r) => r.attrs.fill !== '#fff');
      expect(rects).toHaveLength(3);
      expect(all(bars, 'text').map((t) => t.text)).toContain('gpu <0>');
      // The taller bar (2) is four times the height of the 0.5 one.
      const [tall, short] = rects.map((r) => Number(r.attrs.height));
      expect(tall / short).toBeCloseTo(4, 1);

      const empty = parseXml(chartSvg({ panels: [] }));
      expect(all(empty, 'text').map((t) => t.text)).toEqual(['[empty chart]']);

      const manyPanels = parseXml(
        chartSvg({
          panels: ['loss', 'acc', 'lr'].map((title) => ({
            title,
            kind: 'line' as const,
            series: [{ name: title, points: [[1, 1]] as [number, number][] }],
          })),
        }),
      );
      expect(Number(manyPanels.attrs.width)).toBe(2 * SVG_LAYOUT.panelWidth + SVG_LAYOUT.gap);
      expect(all(manyPanels, 'text').map((t) => t.text)).toEqual(
        expect.arrayContaining(['loss', 'acc', 'lr']),
      );
    },
  );
});
