/**
 * tf.keras.callbacks.ModelCheckpoint and EarlyStopping(min_delta) from Python, through fit: the
 * files that appear in the kernel's file store are named as Python's str.format names them from
 * the History (computed here from the History, not by the callback), save_best_only writes
 * exactly the epochs that improved by hand, a checkpoint loads back to the weights it saved, and
 * EarlyStopping stops at the epoch Keras's rule gives on a History of the same run without it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getTensorStore, setTensorStore } from '../../engine/serialization';
import { denseRegressionCode, startTfPython, tfName } from './testing/tf-python';

const { devices, python } = await startTfPython();
afterEach(() => setTensorStore(null));

const SETUP = (device: string, seed: number, lr = 0.1): string => `
${denseRegressionCode(device, seed, 48, `optimizer=optimizers.SGD(${lr}), loss="mse"`)}
    ds = tf.data.Dataset.from_tensor_slices((x[:32], y[:32])).batch(8)
    val = tf.data.Dataset.from_tensor_slices((x[32:], y[32:])).batch(8)
`;

/** The epochs (1-based) a `mode` checkpoint with save_best_only saves, by Keras's rule. */
function improvingEpochs(values: number[], mode: 'min' | 'max'): number[] {
  let best = mode === 'min' ? Infinity : -Infinity;
  const saved: number[] = [];
  values.forEach((v, i) => {
    if (mode === 'min' ? v < best : v > best) {
      best = v;
      saved.push(i + 1);
    }
  });
  return saved;
}

describe.each(devices.map((d) => d.name))('Keras checkpoints from Python on %s', (device) => {
  it('ModelCheckpoint names files from the epoch and logs; the last one loads back the final weights', async () => {
    const [losses, final, loaded] = (await python.run(`${SETUP(device, 11)}
with tf.device("${tfName(device)}"):
    ckpt = callbacks.ModelCheckpoint("ckpt-{epoch:02d}-{loss:.3f}.h5", save_weights_only=True)
    history = model.fit(ds, epochs=3, verbose=0, callbacks=[ckpt])
    final = model.get_weights()
    model.set_weights([[[0.0] * 2] * 3, [0.0] * 2])
    last = "ckpt-03-%.3f.h5" % history.history["loss"][2]
    model.load_weights(last)
[history.history["loss"], final, model.get_weights()]`)) as [number[], unknown, unknown];
    const files = await getTensorStore().list();
    const expected = losses.map(
      (l, i) => `ckpt-${String(i + 1).padStart(2, '0')}-${l.toFixed(3)}.h5`,
    );
    expect(files.filter((f) => f.startsWith('ckpt-'))).toEqual(expected);
    expect(loaded).toEqual(final);
  });

  it.each(['min', 'max'] as const)(
    'save_best_only (mode=%s) writes exactly the epochs whose val_loss improved',
    async (mode) => {
      const valLosses = (await python.run(`${SETUP(device, 12, 0.9)}
with tf.device("${tfName(device)}"):
    best = callbacks.ModelCheckpoint("best-${mode}-{epoch:02d}.h5", monitor="val_loss", mode="${mode}", save_best_only=True, save_weights_only=True)
    history = model.fit(ds, validation_data=val, epochs=5, verbose=0, callbacks=[best])
history.history["val_loss"]`)) as number[];
      const files = (await getTensorStore().list()).filter((f) => f.startsWith(`best-${mode}-`));
      const expected = improvingEpochs(valLosses, mode).map(
        (e) => `best-${mode}-${String(e).padStart(2, '0')}.h5`,
      );
      expect(files).toEqual(expected);
    },
  );

  it('EarlyStopping(monitor, patience, min_delta) stops where Keras’s rule says on the full run’s History', async () => {
    const full = (await python.run(`${SETUP(device, 13)}
with tf.device("${tfName(device)}"):
    history = model.fit(ds, epochs=8, verbose=0)
history.history["loss"]`)) as number[];
    // A min_delta larger than the second epoch's gain but smaller than the first's.
    const gains = full.slice(1).map((l, i) => full[i] - l);
    const minDelta = (Math.min(...gains) + Math.max(...gains)) / 2;
    const patience = 2;
    let best = Infinity;
    let wait = 0;
    let stopAfter = full.length;
    for (let i = 0; i < full.length; i++) {
      if (full[i] + minDelta < best) {
        best = full[i];
        wait = 0;
      } else if (++wait >= patience) {
        stopAfter = i + 1;
        break;
      }
    }
    expect(stopAfter).toBeLessThan(full.length); // the rule does stop this run early
    const stopped = (await python.run(`${SETUP(device, 13)}
with tf.device("${tfName(device)}"):
    stop = callbacks.EarlyStopping(monitor="loss", patience=${patience}, min_delta=${minDelta}, mode="min")
    history = model.fit(ds, epochs=8, verbose=0, callbacks=[stop])
history.history["loss"]`)) as number[];
    expect(stopped).toHaveLength(stopAfter);
    stopped.forEach((l, i) => expect(Math.abs(l - full[i])).toBeLessThan(1e-6));
  });

  it('a filepath naming a value the logs lack raises a clear error', async () => {
    const error = (await python.run(`${SETUP(device, 14)}
try:
    model.fit(ds, epochs=1, verbose=0, callbacks=[callbacks.ModelCheckpoint("c-{val_acc:.2f}.h5")])
except Exception as e:
    err = f"{type(e).__name__}: {e}"
err`)) as string;
    expect(error).toMatch(
      /names '\{val_acc\}', which is not among the epoch's values \(loss, epoch\)/,
    );
  });
});
