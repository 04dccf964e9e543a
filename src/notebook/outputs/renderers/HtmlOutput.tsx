/**
 * `text/html` and `text/markdown` outputs (IPython's `_repr_html_`, `HTML(...)`, a DataFrame,
 * `Markdown(...)`): rendered only through the notebook sanitiser (../../security/sanitize.ts), so
 * no script, event handler, style, form or frame in them ever reaches the page.
 */
import { useMemo } from 'react';
import { renderMarkdown } from '../../markdown/renderMarkdown';
import { sanitizeHtml } from '../../security/sanitize';
import type { OutputRendererProps } from '../registry';
import './rich-outputs.css';

export function HtmlOutput({ data }: OutputRendererProps) {
  const html = useMemo(() => (typeof data === 'string' ? sanitizeHtml(data) : ''), [data]);
  // Its input is DOMPurify's output (sanitizeHtml), as in MarkdownView.
  return <div className="output-html" dangerouslySetInnerHTML={{ __html: html }} />;
}

export function MarkdownOutput({ data }: OutputRendererProps) {
  const html = useMemo(() => (typeof data === 'string' ? renderMarkdown(data) : ''), [data]);
  // renderMarkdown's output is sanitised (marked, then sanitizeHtml).
  return (
    <div className="output-markdown markdown-body" dangerouslySetInnerHTML={{ __html: html }} />
  );
}
