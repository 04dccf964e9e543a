/**
 * Training events and the observers that listen to them: the fit loop reports begin/end of
 * training, epochs and phases, every step (with the logs last read back), improvements and early
 * stopping. Progress bars and live charts (the outputs issue) are observers; so are the text
 * printers here, in torchkeras's and Keras's styles.
 */
import { writeOutput } from './output';

export type Phase = 'train' | 'val';
export type Logs = Record<string, number>;

export interface TrainBeginEvent {
  epochs: number;
  /** Batches per training epoch, when the data knows its length. */
  steps: number | null;
}

export interface EpochEvent {
  epoch: number;
  epochs: number;
}

export interface StepEvent {
  phase: Phase;
  epoch: number;
  step: number;
  steps: number | null;
  /** Running values since the phase began, as last read back (refreshed every logging interval). */
  logs: Logs;
  /** True when `logs` were read at this step. */
  fresh: boolean;
}

export interface PhaseEndEvent {
  phase: Phase;
  epoch: number;
  steps: number;
  logs: Logs;
}

export interface EpochEndEvent {
  epoch: number;
  epochs: number;
  /** The history row of this epoch. */
  logs: Logs;
}

export interface BestEvent {
  monitor: string;
  value: number;
  epoch: number;
}

export interface EarlyStopEvent {
  monitor: string;
  patience: number;
  epoch: number;
  bestEpoch: number;
}

export interface TrainEndEvent {
  history: Logs[];
  stoppedEarly: boolean;
  /** Epoch whose weights the model holds at the end (the best one when checkpointing). */
  bestEpoch: number | null;
}

/** Every method is optional: observers implement what they draw. */
export interface TrainingObserver {
  onTrainBegin?(event: TrainBeginEvent): void;
  onEpochBegin?(event: EpochEvent): void;
  onStep?(event: StepEvent): void;
  onPhaseEnd?(event: PhaseEndEvent): void;
  onEpochEnd?(event: EpochEndEvent): void;
  onBest?(event: BestEvent): void;
  onEarlyStop?(event: EarlyStopEvent): void;
  onTrainEnd?(event: TrainEndEvent): void;
}

/** Python's '{:.3g}', which tqdm uses for postfix numbers. */
function g3(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return String(Number(value.toPrecision(3)));
}

function timestamp(): string {
  const d = new Date();
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** torchkeras-like lines: the epoch banner, a finished bar per phase, best and early-stop notes. */
export function torchkerasTextObserver(): TrainingObserver {
  return {
    onEpochBegin: ({ epoch, epochs }) => {
      writeOutput(`\n${'='.repeat(80)}${timestamp()}\nEpoch ${epoch} / ${epochs}\n`);
    },
    onPhaseEnd: ({ steps, logs }) => {
      const post = Object.entries(logs)
        .map(([k, v]) => `${k}=${g3(v)}`)
        .join(', ');
      writeOutput(`100%|${'█'.repeat(20)}| ${steps}/${steps} [${post}]`);
    },
    onBest: ({ monitor, value }) => writeOutput(`<<<<<< reach best ${monitor} : ${value} >>>>>>`),
    onEarlyStop: ({ monitor, patience }) =>
      writeOutput(
        `<<<<<< ${monitor} without improvement in ${patience} epoch, early stopping >>>>>>`,
      ),
  };
}

/** Keras-like lines: `Epoch 1/10` then `469/469 [====…] - loss: 0.3124 - accuracy: 0.9000 - …`. */
export function kerasTextObserver(): TrainingObserver {
  let steps = 0;
  return {
    onEpochBegin: ({ epoch, epochs }) => writeOutput(`Epoch ${epoch}/${epochs}`),
    onPhaseEnd: (event) => {
      if (event.phase === 'train') steps = event.steps;
    },
    onEpochEnd: ({ logs }) => {
      const values = Object.entries(logs)
        .filter(([k]) => k !== 'epoch' && k !== 'lr')
        .map(([k, v]) => `${k}: ${v.toFixed(4)}`)
        .join(' - ');
      writeOutput(`${steps}/${steps} [${'='.repeat(30)}] - ${values}`);
    },
    onEarlyStop: ({ epoch }) => writeOutput(`Epoch ${epoch}: early stopping`),
  };
}

/** Calls one event on every observer. */
export function notify<K extends keyof TrainingObserver>(
  observers: readonly TrainingObserver[],
  event: K,
  payload: Parameters<NonNullable<TrainingObserver[K]>>[0],
): void {
  for (const o of observers) {
    const handler = o[event] as ((p: typeof payload) => void) | undefined;
    handler?.call(o, payload);
  }
}
