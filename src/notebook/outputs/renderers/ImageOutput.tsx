/** An `image/png` output (image grids, or any notebook's PNG) shown from its base64 data. */
import { IMAGE_MIME, type ImageGridData } from '../../../kernel/protocol';
import type { OutputRendererProps } from '../registry';
import './rich-outputs.css';

export function ImageOutput({ data, output }: OutputRendererProps) {
  if (typeof data !== 'string') return null;
  const bundle = output.kind === 'display' || output.kind === 'result' ? output.data : null;
  const grid = bundle?.[IMAGE_MIME] as ImageGridData | undefined;
  const alt = bundle?.['text/plain'] ?? 'image output';
  return (
    <img
      className="output-image"
      src={`data:image/png;base64,${data.replace(/\s+/g, '')}`}
      alt={alt}
      width={grid?.width}
      height={grid?.height}
      data-images={grid?.images}
    />
  );
}
