/**
 * `tf.keras.callbacks.TensorBoard(logDir = 'logs', …)`: what TensorBoard would show of a fit —
 * the loss and metrics per epoch, for training and validation — is the live chart `fit` already
 * draws in the cell (the kernel's fit observer), so this callback adds no second chart. No event
 * files are written to `logDir` and no TensorBoard server runs in the browser; the arguments are
 * Keras's and are kept for `getConfig()`.
 */
import { asInt, bindArgs, optional } from '../../args';
import { ValueError } from '../../tf-config';
import { Callback } from './callbacks';

export class TensorBoard extends Callback {
  readonly logDir: string;
  readonly histogramFreq: number;
  readonly updateFreq: 'epoch' | 'batch' | number;
  private readonly config: Record<string, unknown>;

  constructor(...args: unknown[]) {
    super();
    const a = bindArgs(
      {
        name: 'TensorBoard',
        params: [
          'logDir',
          'histogramFreq',
          'writeGraph',
          'writeImages',
          'writeStepsPerSecond',
          'updateFreq',
          'profileBatch',
          'embeddingsFreq',
          'embeddingsMetadata',
        ],
      },
      args,
    );
    this.logDir = a.logDir === undefined || a.logDir === null ? 'logs' : String(a.logDir);
    this.histogramFreq = optional(a.histogramFreq, asInt, 'TensorBoard: histogramFreq', 0);
    const freq = a.updateFreq ?? 'epoch';
    if (freq !== 'epoch' && freq !== 'batch' && !(typeof freq === 'number' && freq > 0))
      throw new ValueError(
        `TensorBoard: update_freq must be 'epoch', 'batch' or a positive integer, got ${String(freq)}`,
      );
    this.updateFreq = freq;
    this.config = { ...a, logDir: this.logDir, updateFreq: freq };
  }

  getConfig(): Record<string, unknown> {
    return { ...this.config };
  }
}
