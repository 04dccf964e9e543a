/**
 * An image output shown from its data: `image/png` and `image/jpeg` (base64; image grids, any
 * notebook's PNG, IPython's `Image`) as `data:` URLs, and `image/svg+xml` sanitised into one
 * (../../security/sanitize.ts). Width and height come from the output's metadata (nbformat's
 * `{"image/png": {"width": …}}`) or from an image grid's description.
 */
import { useMemo } from 'react';
import { IMAGE_MIME, type ImageGridData } from '../../../kernel/protocol';
import { svgDataUrl } from '../../security/sanitize';
import { imageDataUrl } from '../../security/url-policy';
import type { OutputRendererProps } from '../registry';
import './rich-outputs.css';

function size(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number.parseFloat(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

export function ImageOutput({ mime, data, output }: OutputRendererProps) {
  const src = useMemo(() => {
    if (typeof data !== 'string') return null;
    return mime === 'image/svg+xml' ? svgDataUrl(data) : imageDataUrl(mime, data);
  }, [mime, data]);
  if (src === null) return null;
  const bundle = output.kind === 'display' || output.kind === 'result' ? output.data : null;
  const grid = bundle?.[IMAGE_MIME] as ImageGridData | undefined;
  const metadata = output.kind === 'display' || output.kind === 'result' ? output.metadata : null;
  const own = (metadata?.[mime] ?? {}) as Record<string, unknown>;
  const alt = typeof own.alt === 'string' ? own.alt : (bundle?.['text/plain'] ?? 'image output');
  return (
    <img
      className="output-image"
      src={src}
      alt={alt}
      width={size(own.width) ?? grid?.width}
      height={size(own.height) ?? grid?.height}
      data-images={grid?.images}
    />
  );
}
