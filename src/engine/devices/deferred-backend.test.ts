/**
 * A deferred backend replays what was recorded before its device arrived; a call that throws in
 * the replay must not leave a read waiting behind it for ever (it used to: the replay stopped at
 * the throw and the read's resolver was never called).
 */
import { describe, expect, it } from 'vitest';
import type { BackendCapabilities, CapabilityName, View } from '../backend';
import type { KernelArgs, KernelName } from '../backends/kernel-table';
import { CpuBackend } from '../backends/cpu';
import { DeferredBackend } from './deferred-backend';

/** A CPU backend whose `fill` kernel fails (a kernel refusing its arguments). */
class FailingFill extends CpuBackend {
  protected override route<K extends KernelName>(name: K, args: KernelArgs<K>): void {
    if (name === 'fill') throw new Error('fill: refused');
    super.route(name, args);
  }
}

const whole = (buffer: View['buffer']): View => ({
  buffer,
  dtype: 'float32',
  shape: [4],
  strides: [1],
  offset: 0,
});

function deferred(): { backend: DeferredBackend<CpuBackend>; arrive: () => void } {
  let arrive: () => void = () => undefined;
  const backend = new DeferredBackend<CpuBackend>(
    new Promise((resolve) => (arrive = () => resolve(new FailingFill()))),
  );
  return { backend, arrive };
}

describe('a deferred backend replaying a call that throws', () => {
  it('rejects a read recorded after it with its error, and keeps working', async () => {
    const { backend, arrive } = deferred();
    const buffer = backend.allocate(16);
    backend.write(buffer, Float32Array.of(1, 2, 3, 4));
    const before = backend.read(buffer, 'float32', 0, 4);
    backend.fill(whole(buffer), 5);
    const after = backend.read(buffer, 'float32', 0, 4);
    const other = backend.allocate(16);
    backend.unary('neg', whole(buffer), whole(other));
    arrive();
    expect(Array.from(await before)).toEqual([1, 2, 3, 4]);
    await expect(after).rejects.toThrow('fill: refused');
    // Calls after the failed one still replayed (the buffer was allocated, neg ran), and the
    // error, reported once, does not come back.
    expect(Array.from(await backend.read(other, 'float32', 0, 4))).toEqual([-1, -2, -3, -4]);
  });

  it('throws the error at the next call when no read was waiting', async () => {
    const { backend, arrive } = deferred();
    const buffer = backend.allocate(16);
    backend.write(buffer, Float32Array.of(1, 2, 3, 4));
    backend.fill(whole(buffer), 5);
    arrive();
    await backend.ready;
    expect(() => backend.unary('neg', whole(buffer), whole(buffer))).toThrow('fill: refused');
    expect(Array.from(await backend.read(buffer, 'float32', 0, 4))).toEqual([1, 2, 3, 4]);
  });
});

/** A CPU backend with a tuning capability that records what it is told. */
class RecordingTuner extends CpuBackend {
  readonly told: string[] = [];
  private readonly tuning: BackendCapabilities['tuning'] = {
    tuned: async () => void this.told.push('tuned'),
    setTuningPolicy: (policy) => void this.told.push(policy),
  };

  override capability<K extends CapabilityName>(name: K): BackendCapabilities[K] | null {
    if (name === 'tuning') return this.tuning as BackendCapabilities[K];
    return super.capability(name);
  }
}

describe('tuning through a deferred backend', () => {
  it('takes a policy before its backend opens, applies it as it opens, and waits to be tuned', async () => {
    let arrive: () => void = () => undefined;
    const inner = new RecordingTuner();
    const backend = new DeferredBackend<RecordingTuner>(
      new Promise((resolve) => (arrive = () => resolve(inner))),
    );
    const tuning = backend.capability('tuning');
    expect(tuning).not.toBeNull();
    tuning?.setTuningPolicy('first-use');
    const tuned = tuning?.tuned();
    expect(inner.told).toEqual([]);
    arrive();
    await tuned;
    expect(inner.told).toEqual(['first-use', 'tuned']);
    // Once open, the real backend's own capability answers.
    backend.capability('tuning')?.setTuningPolicy('amortized');
    expect(inner.told).toEqual(['first-use', 'tuned', 'amortized']);
  });
});
