import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cpu } from '../../engine';
import { fromHost } from '../../engine/ops/creation';
import { rng } from '../../engine/testing/harness';
import { IMAGE_MIME } from '../protocol';
import {
  colorOf,
  imageGrid,
  imageLayout,
  renderGrid,
  splitImages,
  type RawImage,
} from './image-grid';

const MARGIN = 8;
const GAP = 8;

function pixel(grid: { width: number; pixels: Uint8Array }, x: number, y: number): number[] {
  const at = (y * grid.width + x) * 4;
  return [...grid.pixels.subarray(at, at + 4)];
}

describe('image layouts', () => {
  it('reads torch (N×C×H×W), tf (N×H×W×C), N×H×W and H×W shapes', () => {
    expect(imageLayout([9, 1, 28, 28])).toMatchObject({
      count: 9,
      height: 28,
      width: 28,
      channels: 1,
      channelsFirst: true,
    });
    expect(imageLayout([4, 32, 30, 3])).toMatchObject({
      count: 4,
      height: 32,
      width: 30,
      channels: 3,
      channelsFirst: false,
    });
    expect(imageLayout([5, 28, 27])).toMatchObject({
      count: 5,
      height: 28,
      width: 27,
      channels: 1,
    });
    expect(imageLayout([28, 20])).toMatchObject({ count: 1, height: 28, width: 20 });
    expect(() => imageLayout([2, 5, 6, 7])).toThrow(/not images/);
  });

  it('moves channels last for channels-first RGB batches', () => {
    // Two 1×2 RGB images, channels first: image i, channel c, pixel p = 100i + 10c + p.
    const values = [0, 1, 10, 11, 20, 21, 100, 101, 110, 111, 120, 121];
    const images = splitImages(values, [2, 3, 1, 2], false);
    expect(Array.from(images[0].values)).toEqual([0, 10, 20, 1, 11, 21]);
    expect(Array.from(images[1].values)).toEqual([100, 110, 120, 101, 111, 121]);
  });
});

describe('renderGrid', () => {
  it('places each image at its cell, scaled, each scaled to its own range', () => {
    const random = rng(21);
    const images: RawImage[] = [0, 1, 2].map(() => ({
      height: 2,
      width: 3,
      channels: 1,
      integer: false,
      values: Float32Array.from({ length: 6 }, () => random() * 4 - 2),
    }));
    const scale = 2;
    const grid = renderGrid(images, { columns: 2, scale });
    expect(grid.width).toBe(2 * MARGIN + 2 * 3 * scale + GAP);
    expect(grid.height).toBe(2 * MARGIN + 2 * 2 * scale + GAP);
    images.forEach((image, i) => {
      const values = Array.from(image.values);
      const lo = Math.min(...values);
      const hi = Math.max(...values);
      const left = MARGIN + (i % 2) * (3 * scale + GAP);
      const top = MARGIN + Math.floor(i / 2) * (2 * scale + GAP);
      for (let y = 0; y < 2 * scale; y++) {
        for (let x = 0; x < 3 * scale; x++) {
          const v = values[Math.floor(y / scale) * 3 + Math.floor(x / scale)];
          const g = Math.round(((v - lo) / (hi - lo)) * 255);
          expect(pixel(grid, left + x, top + y)).toEqual([g, g, g, 255]);
        }
      }
    });
    // Margins, the gap between columns and the empty fourth cell stay white.
    expect(pixel(grid, 0, 0)).toEqual([255, 255, 255, 255]);
    expect(pixel(grid, MARGIN + 3 * scale + 1, MARGIN)).toEqual([255, 255, 255, 255]);
    expect(pixel(grid, grid.width - MARGIN - 1, grid.height - MARGIN - 1)).toEqual([
      255, 255, 255, 255,
    ]);
  });

  it('draws each label in the strip under its image', () => {
    const images: RawImage[] = [
      { height: 30, width: 30, channels: 1, integer: false, values: new Float32Array(900) },
    ];
    const plain = renderGrid(images, { scale: 2 });
    const labelled = renderGrid(images, { scale: 2, labels: [7] });
    expect(labelled.height).toBeGreaterThan(plain.height);
    let ink = 0;
    for (let y = MARGIN + 60; y < labelled.height; y++) {
      for (let x = 0; x < labelled.width; x++) if (pixel(labelled, x, y)[0] !== 255) ink++;
    }
    // '7' in the 5×7 font: a top bar of 5 and one pixel on each of the 6 rows below, at 2×2 each.
    expect(ink).toBe((5 + 6) * 4);
  });

  it('colours with viridis at its ends and middle', () => {
    expect(colorOf(0, 'viridis')).toEqual([68, 1, 84]);
    expect(colorOf(1, 'viridis')).toEqual([253, 231, 37]);
    expect(colorOf(0.5, 'viridis')).toEqual([33, 144, 141]);
    expect(colorOf(0.25, 'gray')).toEqual([64, 64, 64]);
  });
});

describe('imageGrid of a tensor', () => {
  it('encodes the rendered grid as a PNG with labels and a description', async () => {
    const random = rng(4);
    const values = Float32Array.from({ length: 4 * 1 * 6 * 5 }, () => random());
    const t = fromHost(values, [4, 1, 6, 5], { device: cpu() });
    const bundle = await imageGrid(t, { labels: [1, 2, 3, 4], scale: 3 }).toBundle();
    expect(bundle['text/plain']).toBe('<4 images 6×5, labels 1 2 3 4>');
    expect(bundle[IMAGE_MIME]).toMatchObject({
      images: 4,
      columns: 2,
      labels: ['1', '2', '3', '4'],
    });
    const png = Buffer.from(bundle['image/png'] as string, 'base64');
    const expected = renderGrid(splitImages(values, [4, 1, 6, 5], false), {
      labels: [1, 2, 3, 4],
      scale: 3,
    });
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    expect([width, height]).toEqual([expected.width, expected.height]);
    // IDAT starts after the 8-byte signature and the 25-byte IHDR chunk.
    const idatLength = png.readUInt32BE(33);
    const raw = zlib.inflateSync(png.subarray(41, 41 + idatLength));
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const got = raw.subarray(y * (width * 3 + 1) + 1 + x * 3, y * (width * 3 + 1) + 4 + x * 3);
        expect([...got]).toEqual(pixel(expected, x, y).slice(0, 3));
      }
    }
  });
});
