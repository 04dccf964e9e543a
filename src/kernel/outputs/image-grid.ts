/**
 * A grid of images from a tensor (N×1×H×W, N×C×H×W, N×H×W, N×H×W×C, or one H×W image) or a list
 * of image tensors, with optional labels under each image: laid out, coloured (grey or viridis,
 * each single-channel image scaled to its own range as matplotlib's imshow does), labels drawn
 * with the bitmap font, and encoded as a PNG in the worker.
 */
import { Tensor } from '../../engine';
import { IMAGE_MIME, type ImageGridData, type MimeBundle } from '../protocol';
import { drawText, GLYPH_HEIGHT, textWidth } from './bitmap-font';
import { encodePng, toBase64 } from './png';

export interface ImageGridOptions {
  /** One label per image (numbers or text), drawn under it. */
  labels?: readonly unknown[];
  columns?: number;
  /** Colour map of single-channel images (default 'gray'; matplotlib's default is 'viridis'). */
  cmap?: 'gray' | 'viridis';
  /** Pixels per image pixel (default: images about 96 px wide). */
  scale?: number;
  /** Fixed value range of single-channel images (default: each image's own min and max). */
  vmin?: number;
  vmax?: number;
}

/** One image's values, channels last. */
export interface RawImage {
  height: number;
  width: number;
  channels: 1 | 3 | 4;
  values: ArrayLike<number>;
  /** Integer pixel values (0..255) rather than floats in [0, 1]. */
  integer: boolean;
}

export interface RgbaImage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

export const MAX_IMAGES = 400;
const MAX_SIDE = 4096;
const MARGIN = 8;
const GAP = 8;
const BACKGROUND: readonly [number, number, number] = [255, 255, 255];
const INK: readonly [number, number, number] = [31, 41, 51];

// matplotlib's viridis at nine evenly spaced points; interpolated linearly between them.
const VIRIDIS: readonly (readonly [number, number, number])[] = [
  [68, 1, 84],
  [71, 44, 122],
  [59, 81, 139],
  [44, 113, 142],
  [33, 144, 141],
  [39, 173, 129],
  [92, 200, 99],
  [170, 220, 50],
  [253, 231, 37],
];

/** The RGB colour of a value in [0, 1] under a colour map. */
export function colorOf(t: number, cmap: 'gray' | 'viridis'): [number, number, number] {
  const v = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0));
  if (cmap === 'gray') {
    const g = Math.round(v * 255);
    return [g, g, g];
  }
  const pos = v * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(pos));
  const f = pos - i;
  const a = VIRIDIS[i];
  const b = VIRIDIS[i + 1];
  return [0, 1, 2].map((k) => Math.round(a[k] + (b[k] - a[k]) * f)) as [number, number, number];
}

/** How many columns a grid of n images gets by default: a square (3×3 for the chapter's 9). */
export function defaultColumns(n: number): number {
  return Math.max(1, Math.min(n, Math.ceil(Math.sqrt(n))));
}

function labelText(label: unknown): string {
  if (label === undefined || label === null) return '';
  return typeof label === 'number' && !Number.isInteger(label)
    ? String(Number(label.toPrecision(4)))
    : String(label);
}

/** Lays images out in a grid, colours them and draws the labels: RGBA pixels. */
export function renderGrid(images: readonly RawImage[], options: ImageGridOptions = {}): RgbaImage {
  if (images.length === 0) throw new Error('imageGrid: no images');
  if (images.length > MAX_IMAGES) {
    throw new RangeError(`imageGrid: ${images.length} images; show at most ${MAX_IMAGES}`);
  }
  const cellH = Math.max(...images.map((im) => im.height));
  const cellW = Math.max(...images.map((im) => im.width));
  const columns = Math.max(
    1,
    Math.min(images.length, Math.floor(options.columns ?? defaultColumns(images.length))),
  );
  const rows = Math.ceil(images.length / columns);
  let scale = Math.max(1, Math.floor(options.scale ?? 96 / Math.max(cellH, cellW)));
  const sideAt = (s: number, cells: number, size: number) =>
    2 * MARGIN + cells * size * s + (cells - 1) * GAP;
  while (scale > 1 && sideAt(scale, columns, cellW) > MAX_SIDE) scale--;
  const labels = (options.labels ?? []).map(labelText);
  const hasLabels = labels.some((l) => l.length > 0);
  const boxW = cellW * scale;
  const fontScale = boxW >= 60 ? 2 : 1;
  const labelH = hasLabels ? GLYPH_HEIGHT * fontScale + 6 : 0;
  const width = sideAt(scale, columns, cellW);
  const height = 2 * MARGIN + rows * (cellH * scale + labelH) + (rows - 1) * GAP;
  if (width > MAX_SIDE || height > MAX_SIDE * 2) {
    throw new RangeError(`imageGrid: a ${width}×${height} picture is too large; show fewer images`);
  }
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    pixels.set(BACKGROUND, i * 4);
    pixels[i * 4 + 3] = 255;
  }
  const cmap = options.cmap ?? 'gray';
  images.forEach((image, index) => {
    const col = index % columns;
    const row = Math.floor(index / columns);
    const left = MARGIN + col * (boxW + GAP);
    const top = MARGIN + row * (cellH * scale + labelH + GAP);
    paintImage(pixels, width, image, left, top, scale, cmap, options);
    const label = labels[index] ?? '';
    if (label) {
      let text = label;
      let s = fontScale;
      if (textWidth(text, s) > boxW + GAP) s = 1;
      while (text.length > 1 && textWidth(text, s) > boxW + GAP) text = text.slice(0, -1);
      const x = left + Math.floor((boxW - textWidth(text, s)) / 2);
      drawText(pixels, width, height, text, x, top + cellH * scale + 4, s, INK);
    }
  });
  return { width, height, pixels };
}

function paintImage(
  pixels: Uint8Array,
  width: number,
  image: RawImage,
  left: number,
  top: number,
  scale: number,
  cmap: 'gray' | 'viridis',
  options: ImageGridOptions,
): void {
  const { values, channels } = image;
  const n = image.height * image.width;
  let lo = options.vmin ?? Infinity;
  let hi = options.vmax ?? -Infinity;
  if (channels === 1 && (options.vmin === undefined || options.vmax === undefined)) {
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (!Number.isFinite(v)) continue;
      if (options.vmin === undefined && v < lo) lo = v;
      if (options.vmax === undefined && v > hi) hi = v;
    }
  }
  const range = hi > lo ? hi - lo : 0;
  let rgbMax = 1;
  if (channels > 1) {
    let top255 = image.integer;
    for (let i = 0; i < values.length && !top255; i++) if (values[i] > 1) top255 = true;
    rgbMax = top255 ? 255 : 1;
  }
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const at = (y * image.width + x) * channels;
      let rgb: [number, number, number];
      if (channels === 1) {
        rgb = colorOf(range > 0 ? (values[at] - lo) / range : 0, cmap);
      } else {
        rgb = [0, 1, 2].map((k) =>
          Math.round(Math.min(1, Math.max(0, values[at + k] / rgbMax)) * 255),
        ) as [number, number, number];
      }
      for (let dy = 0; dy < scale; dy++) {
        const rowStart = ((top + y * scale + dy) * width + left + x * scale) * 4;
        for (let dx = 0; dx < scale; dx++) {
          const p = rowStart + dx * 4;
          pixels[p] = rgb[0];
          pixels[p + 1] = rgb[1];
          pixels[p + 2] = rgb[2];
          pixels[p + 3] = 255;
        }
      }
    }
  }
}

/**
 * Splits a batch shape into images: [N, C, H, W] with C in {1, 3, 4} (channels first, as torch),
 * [N, H, W, C] with C in {1, 3, 4} (channels last, as tf), [N, H, W], or one [H, W] image.
 */
export function imageLayout(shape: readonly number[]): {
  count: number;
  height: number;
  width: number;
  channels: 1 | 3 | 4;
  channelsFirst: boolean;
} {
  const isC = (c: number) => c === 1 || c === 3 || c === 4;
  if (shape.length === 2) {
    return { count: 1, height: shape[0], width: shape[1], channels: 1, channelsFirst: false };
  }
  if (shape.length === 3) {
    if (isC(shape[2]) && shape[2] !== 1 && shape[0] > 4) {
      return {
        count: 1,
        height: shape[0],
        width: shape[1],
        channels: shape[2] as 3 | 4,
        channelsFirst: false,
      };
    }
    return {
      count: shape[0],
      height: shape[1],
      width: shape[2],
      channels: 1,
      channelsFirst: false,
    };
  }
  if (shape.length === 4) {
    // Both ends could be channels only for tiny images; torch's channels-first wins then.
    if (isC(shape[1])) {
      const channels = shape[1] as 1 | 3 | 4;
      return { count: shape[0], height: shape[2], width: shape[3], channels, channelsFirst: true };
    }
    if (isC(shape[3])) {
      const channels = shape[3] as 1 | 3 | 4;
      return { count: shape[0], height: shape[1], width: shape[2], channels, channelsFirst: false };
    }
  }
  throw new Error(
    `imageGrid: a tensor of shape [${shape.join(', ')}] is not images; expected N×1×H×W, N×C×H×W, N×H×W, N×H×W×C or H×W`,
  );
}

/** Cuts a batch's values into channels-last images. */
export function splitImages(
  values: ArrayLike<number>,
  shape: readonly number[],
  integer: boolean,
): RawImage[] {
  const { count, height, width, channels, channelsFirst } = imageLayout(shape);
  const size = height * width * channels;
  const images: RawImage[] = [];
  for (let i = 0; i < count; i++) {
    const out = new Float32Array(size);
    const base = i * size;
    if (channelsFirst && channels > 1) {
      for (let c = 0; c < channels; c++) {
        for (let p = 0; p < height * width; p++)
          out[p * channels + c] = values[base + c * height * width + p];
      }
    } else {
      for (let k = 0; k < size; k++) out[k] = values[base + k];
    }
    images.push({ height, width, channels, values: out, integer });
  }
  return images;
}

/** The images of a tensor or a list of image tensors (read back from their device). */
export async function readImages(value: Tensor | readonly Tensor[]): Promise<RawImage[]> {
  if (value instanceof Tensor) {
    return splitImages(await value.data(), value.shape, value.dtype === 'int32');
  }
  const parts = await Promise.all(
    value.map(async (t) => {
      if (!(t instanceof Tensor)) throw new TypeError('imageGrid: expected tensors');
      // A single image may come as 1×H×W (torchvision's ToTensor) or H×W×C.
      const shape = t.shape.length === 3 && t.shape[0] <= 4 ? [1, ...t.shape] : t.shape;
      return splitImages(await t.data(), shape, t.dtype === 'int32');
    }),
  );
  return parts.flat();
}

/** What `imageGrid(images, options)` returns and `display` shows. */
export class ImageGrid {
  constructor(
    readonly images: Tensor | readonly Tensor[],
    readonly options: ImageGridOptions = {},
  ) {
    const list = images instanceof Tensor ? [images] : images;
    if (!Array.isArray(list) || list.some((t) => !(t instanceof Tensor))) {
      throw new TypeError('imageGrid: give a tensor of images or an array of image tensors');
    }
  }

  async toBundle(): Promise<MimeBundle> {
    const images = await readImages(this.images);
    const grid = renderGrid(images, this.options);
    const png = await encodePng(grid.pixels, grid.width, grid.height);
    const labels = (this.options.labels ?? []).map(labelText);
    const columns = Math.min(
      images.length,
      Math.floor(this.options.columns ?? defaultColumns(images.length)),
    );
    const data: ImageGridData = {
      width: grid.width,
      height: grid.height,
      images: images.length,
      columns,
      labels,
    };
    const shape = `${images[0].height}×${images[0].width}`;
    const text =
      `<${images.length} image${images.length === 1 ? '' : 's'} ${shape}` +
      `${labels.length ? `, labels ${labels.join(' ')}` : ''}>`;
    return { 'text/plain': text, 'image/png': toBase64(png), [IMAGE_MIME]: data };
  }
}

export function imageGrid(
  images: Tensor | readonly Tensor[],
  options: ImageGridOptions = {},
): ImageGrid {
  return new ImageGrid(images, options);
}
