/**
 * A code cell's output area (`cell-output`, whose text is the text of its outputs and nothing
 * else): each output drawn by the renderer its MIME type is
 * registered with, `Out[n]:` before a cell's result, and a failing renderer contained to its
 * output (it falls back to the text/plain rendering).
 */
import { Component, memo, type ReactNode } from 'react';
import type { CellOutput } from '../../kernel/protocol';
import './builtins';
import { PLAIN_MIME, rendererFor, resolveOutput } from './registry';
import { PlainTextOutput } from './renderers/PlainTextOutput';

export const OutputArea = memo(function OutputArea({ outputs }: { outputs: CellOutput[] }) {
  return (
    <div className="cell-output" data-testid="cell-output" aria-live="polite">
      {outputs.map((output, i) => (
        <OutputItem key={i} output={output} />
      ))}
    </div>
  );
});

const OutputItem = memo(function OutputItem({ output }: { output: CellOutput }) {
  const { mime, data } = resolveOutput(output);
  const Renderer = rendererFor(mime) ?? PlainTextOutput;
  const fallbackText =
    output.kind === 'result' || output.kind === 'display' ? output.data[PLAIN_MIME] : '';
  return (
    <div className={`output output-${output.kind}`} data-mime={mime}>
      {/* The prompt is drawn by CSS from data-prompt, so the area's text stays the outputs' text. */}
      {output.kind === 'result' && (
        <div className="output-prompt" data-prompt={`Out[${output.executionCount}]:`} />
      )}
      <div className="output-body">
        <RendererBoundary fallback={<pre className="output-text">{fallbackText}</pre>}>
          <Renderer mime={mime} data={data} output={output} />
        </RendererBoundary>
      </div>
    </div>
  );
});

class RendererBoundary extends Component<
  { fallback: ReactNode; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
