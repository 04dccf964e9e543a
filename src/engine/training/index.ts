/** The training core: the fit loop, tasks, observers and the text output writer. */
export {
  evaluateLoop,
  fitLoop,
  type BatchSource,
  type FitOptions,
  type FitResult,
  type LoopMetric,
  type StepResult,
  type TrainingTask,
} from './fit';
export {
  kerasTextObserver,
  notify,
  torchkerasTextObserver,
  type BestEvent,
  type EarlyStopEvent,
  type EpochEndEvent,
  type EpochEvent,
  type Logs,
  type Phase,
  type PhaseEndEvent,
  type StepEvent,
  type TrainBeginEvent,
  type TrainEndEvent,
  type TrainingObserver,
} from './observer';
export { defaultObservers, setDefaultObservers } from './default-observers';
export { setTrainingOutput, writeOutput, type TextWriter } from './output';
export { featuresAndLabels, torchTask, type LossFn } from './torch-task';
