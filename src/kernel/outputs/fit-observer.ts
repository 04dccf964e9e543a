/**
 * What a fit cell shows while it trains: an epochs bar, a steps bar (train, then val, with the
 * running metrics as postfix) and ONE chart — per-epoch train/val curves of the loss and every
 * metric (accuracies on 0–1) plus the running training loss per logging step.
 */
import type { Logs, TrainingObserver } from '../../engine/training';
import { Chart } from './chart';
import type { LiveOutput } from './live-display';
import { ProgressBar } from './progress';
import type { Clock } from './throttle';

/** History keys that are not curves. */
const NOT_CURVES = new Set(['epoch', 'lr']);

function curves(logs: Logs): Record<string, number> {
  return Object.fromEntries(Object.entries(logs).filter(([k]) => !NOT_CURVES.has(k)));
}

export interface FitOutputs {
  chart: Chart;
  epochs: ProgressBar;
  steps: ProgressBar;
}

/**
 * An observer for one fit; `show` displays each live output once, at the start of training.
 * `onOutputs` hands the outputs to tests.
 */
export function createFitObserver(
  show: (value: LiveOutput) => void,
  options: { clock?: Clock; onOutputs?: (outputs: FitOutputs) => void } = {},
): TrainingObserver {
  let outputs: FitOutputs | null = null;
  let phase: 'train' | 'val' | null = null;
  let lastTrainSteps: number | null = null;

  return {
    onTrainBegin: ({ epochs, steps }) => {
      const clock = options.clock;
      outputs = {
        epochs: new ProgressBar({ total: epochs, desc: 'epochs', unit: 'epoch', clock }),
        steps: new ProgressBar({ total: steps, desc: 'train', clock }),
        chart: new Chart({ title: 'Training', xLabel: 'epoch', xRange: [0, epochs] }),
      };
      lastTrainSteps = steps;
      show(outputs.epochs);
      show(outputs.steps);
      show(outputs.chart);
      options.onOutputs?.(outputs);
    },
    onEpochBegin: ({ epoch, epochs }) => {
      outputs?.epochs.setDescription(`epoch ${epoch}/${epochs}`);
    },
    onStep: (event) => {
      if (!outputs) return;
      if (event.phase !== phase) {
        phase = event.phase;
        outputs.steps.reset(event.steps);
        outputs.steps.setDescription(event.phase);
      }
      outputs.steps.set(event.step);
      if (!event.fresh) return;
      outputs.steps.setPostfix(event.logs);
      const steps = event.steps ?? (event.phase === 'train' ? lastTrainSteps : null);
      const lossKey = Object.keys(event.logs).find((k) => k.endsWith('loss'));
      if (event.phase === 'train' && steps && lossKey !== undefined) {
        outputs.chart.add(
          `${lossKey} (steps)`,
          event.epoch - 1 + event.step / steps,
          event.logs[lossKey],
          { panel: 'loss', detail: true },
        );
      }
    },
    onPhaseEnd: (event) => {
      if (!outputs) return;
      if (event.phase === 'train') lastTrainSteps = event.steps;
      outputs.steps.set(event.steps);
      outputs.steps.setPostfix(event.logs);
      phase = null;
    },
    onEpochEnd: ({ epoch, logs }) => {
      if (!outputs) return;
      const values = curves(logs);
      outputs.chart.log(values, { x: epoch });
      outputs.epochs.setPostfix(values);
      outputs.epochs.set(epoch);
    },
    onEarlyStop: ({ epoch }) => {
      outputs?.epochs.setDescription(`stopped early after epoch ${epoch}`);
    },
    onTrainEnd: () => {
      if (!outputs) return;
      outputs.steps.close();
      outputs.epochs.close();
      outputs.chart.flush();
      outputs = null;
    },
  };
}
