/** A benchmark's outputs (table, chart, notes) drawn by the notebook's output renderers. */
import { memo } from 'react';
import type { CellOutput } from '../../kernel/protocol';
import '../../notebook/outputs/builtins';
import { rendererFor, resolveOutput } from '../../notebook/outputs/registry';
import { PlainTextOutput } from '../../notebook/outputs/renderers/PlainTextOutput';

export const PanelOutputs = memo(function PanelOutputs({ outputs }: { outputs: CellOutput[] }) {
  return (
    <div className="timing-outputs">
      {outputs.map((output, i) => {
        const { mime, data } = resolveOutput(output);
        const Renderer = rendererFor(mime) ?? PlainTextOutput;
        return (
          <div key={i} className={`output output-${output.kind}`} data-mime={mime}>
            <div className="output-body">
              <Renderer mime={mime} data={data} output={output} />
            </div>
          </div>
        );
      })}
    </div>
  );
});
