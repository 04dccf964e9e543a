/** A markdown cell shown rendered (sanitised HTML; see renderMarkdown.ts). */
import { memo, useMemo } from 'react';
import { renderMarkdown } from './renderMarkdown';

export const MarkdownView = memo(function MarkdownView({ source }: { source: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  if (!source.trim()) {
    return (
      <div className="markdown-empty">
        Empty markdown cell. Double-click or press Enter to edit.
      </div>
    );
  }
  // The only dangerouslySetInnerHTML in the app: its input is DOMPurify's output.
  return <div className="markdown-body" dangerouslySetInnerHTML={{ __html: html }} />;
});
