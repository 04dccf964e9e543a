/** Pre-wrapped terminal text that shows only its head and tail when very long, with "show all". */
import { useMemo, useState } from 'react';
import { terminalText, truncateText } from './text';

export function LongText({ text, className }: { text: string; className?: string }) {
  const [expanded, setExpanded] = useState(false);
  const shown = useMemo(() => terminalText(text), [text]);
  const cut = useMemo(() => (expanded ? null : truncateText(shown)), [shown, expanded]);
  const classes = `output-text${className ? ` ${className}` : ''}`;
  if (!cut || cut.hiddenChars === 0) return <pre className={classes}>{shown}</pre>;
  const what =
    cut.hiddenLines > 0
      ? `${cut.hiddenLines.toLocaleString('en-US')} more lines`
      : `${cut.hiddenChars.toLocaleString('en-US')} more characters`;
  return (
    <pre className={classes}>
      {cut.head}
      {/* Label drawn by CSS from data-label: the output's text stays the program's text. */}
      <button
        type="button"
        className="output-show-all"
        aria-label={`${what} hidden, show all`}
        data-label={`… ${what} hidden · show all`}
        onClick={() => setExpanded(true)}
      />
      {'\n'}
      {cut.tail}
    </pre>
  );
}
