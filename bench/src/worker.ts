/**
 * One benchmark worker: starts one engine at its first request, then runs the cases of each
 * request it is sent (the page sends one case at a time, engines taking turns), posting each
 * result and a `done` per request.
 */
import type { BenchEvent, BenchRequest, EngineName } from './protocol';
import { timeCase, type CaseSetup } from './timing';
import { oursCases, tuningEntries } from './engines/ours';
import { peakCases } from './engines/peak';
import { besidePeak } from './adjacent-peak';
import { pythonCases } from './engines/python';
import { tfjsCases } from './engines/tfjs';
import { jaxjsCases } from './engines/jaxjs';

const post = (event: BenchEvent) => (self as unknown as Worker).postMessage(event);

interface Started {
  setups: Record<string, CaseSetup>;
  startError: string | null;
}

async function start(engine: EngineName): Promise<Started> {
  let setups: Record<string, CaseSetup> = {};
  let startError: string | null = null;
  try {
    if (engine === 'peak-fma') {
      setups = await peakCases();
      const adapter = await navigator.gpu.requestAdapter();
      const info = adapter?.info;
      post({
        type: 'adapter',
        description: info
          ? `${info.vendor} ${info.architecture} ${info.description}`.trim()
          : 'none',
      });
    } else if (engine === 'ours-webgpu') setups = await oursCases('webgpu');
    else if (engine === 'ours-python') setups = await pythonCases();
    else if (engine === 'ours-cpu') setups = await oursCases('cpu');
    else if (engine === 'jaxjs-webgpu') setups = await jaxjsCases();
    else setups = await tfjsCases(engine.replace('tfjs-', '') as 'webgpu' | 'wasm' | 'cpu');
  } catch (error) {
    startError = error instanceof Error ? error.message : String(error);
  }
  return { setups, startError };
}

let started: Promise<Started> | null = null;

self.onmessage = async (message: MessageEvent<BenchRequest>) => {
  const { engine, cases } = message.data;
  started ??= start(engine);
  const { setups, startError } = await started;
  for (const request of cases) {
    const result = startError
      ? {
          name: request.name,
          engine,
          params: request.params,
          flops: request.flops,
          seconds: [],
          error: startError,
        }
      : engine === 'ours-webgpu' && request.flops > 0 && setups[request.name]
        ? // Our products' "% of peak" compares them with the peak of the same minutes.
          await besidePeak(() => timeCase(engine, request, setups[request.name]))
        : await timeCase(engine, request, setups[request.name]);
    post({ type: 'result', result });
  }
  if (engine === 'ours-webgpu') post({ type: 'tuning', entries: tuningEntries() });
  post({ type: 'done' });
};
