/**
 * The new Keras pieces under `tf.distribute.MirroredStrategy` on two logical GPUs (one WebGPU
 * adapter split in two): the masked recurrent model (Embedding(mask_zero) + Bidirectional LSTM +
 * GRU, AUC/Precision/Recall), the functional MultiHeadAttention block (AdamW, CosineDecay) and a
 * Python-subclassed model give, from the same weights, the same first-epoch loss as one device
 * (the batch's gradient is the sum of the replicas', one update on the first device). The
 * BatchNormalization model normalises each replica's slice with that slice's statistics, as
 * TensorFlow's non-synchronized BatchNormalization does, so its loss is the mean of the slices'
 * losses; its moving statistics are those the first replica's slice gives (docs/tf-keras.md).
 * The models are testing/keras_memory_program.py's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getDevice, memoryAllocated } from '../../engine';
import { initTwoLogicalGpus } from '../../engine/testing/two-gpus';
import { tf } from '../tf';
import { startPython } from './testing/pyodide';
import PROGRAM from './testing/keras_memory_program.py?raw';

await initTwoLogicalGpus();
const python = await startPython({ tf });

const COMPARE = `
def fit_once(model, x, y):
    history = model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
    return {k: v[0] for k, v in history.history.items()}


def compare(key, make):
    x, y = DATA[key]
    with tf.device("/gpu:0"):
        tf.keras.backend.clear_session()
        single, _ = make()
        weights = single.get_weights()
        one = fit_once(single, x, y)
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        tf.keras.backend.clear_session()
        mirrored, _ = make()
        mirrored.set_weights(weights)
    two = fit_once(mirrored, x, y)
    return {"one": one, "two": two, "replicas": strategy.num_replicas_in_sync}


def compare_batch_norm():
    x, y = DATA["conv"]
    with tf.device("/gpu:0"):
        tf.keras.backend.clear_session()
        single, loss = make_conv()
        weights = single.get_weights()
        norm = single.layers[1]
        halves = [float(loss(y[:2], single(x[:2], training=True)))]
        first_slice = [float(v) for v in tf.reshape(norm.moving_mean, [-1])]
        halves.append(float(loss(y[2:], single(x[2:], training=True))))
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        tf.keras.backend.clear_session()
        mirrored, _ = make_conv()
        mirrored.set_weights(weights)
    two = fit_once(mirrored, x, y)
    moving = [float(v) for v in tf.reshape(mirrored.layers[1].moving_mean, [-1])]
    return {"halves": halves, "loss": two["loss"], "first_slice": first_slice, "moving": moving}


def start_mirrored():
    global MIRRORED
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        tf.keras.backend.clear_session()
        MIRRORED = [(make_rnn()[0], DATA["rnn"]), (make_sub()[0], DATA["sub"])]


def mirrored_epochs(n):
    return [m.fit(x, y, batch_size=4, epochs=n, verbose=0).history["loss"][-1] for m, (x, y) in MIRRORED]
`;

describe('the new Keras pieces under MirroredStrategy on two logical GPUs', () => {
  beforeAll(async () => {
    await python.run(`import tensorflow as tf\nDEVICE = "/gpu:0"\n${PROGRAM}\n${COMPARE}`);
  });

  it('give one device’s first-epoch loss from the same weights', async () => {
    type Run = { one: Record<string, number>; two: Record<string, number>; replicas: number };
    for (const [key, make] of [
      ['rnn', 'make_rnn'],
      ['mha', 'make_mha'],
      ['sub', 'lambda: make_sub(norm=False)'],
    ]) {
      const r = (await python.run(`compare("${key}", ${make})`)) as Run;
      expect(r.replicas).toBe(2);
      expect(Object.keys(r.two).sort()).toEqual(Object.keys(r.one).sort());
      for (const metric of Object.keys(r.one)) {
        const [a, b] = [r.one[metric], r.two[metric]];
        expect(Math.abs(a - b), `${key} ${metric}: ${a} vs ${b}`).toBeLessThanOrEqual(
          1e-4 * Math.max(1, Math.abs(a)),
        );
      }
    }
  }, 240_000);

  it("normalise each replica's slice with its own statistics (BatchNormalization)", async () => {
    const r = (await python.run('compare_batch_norm()')) as {
      halves: number[];
      loss: number;
      first_slice: number[];
      moving: number[];
    };
    const mean = (r.halves[0] + r.halves[1]) / 2;
    expect(Math.abs(r.loss - mean)).toBeLessThanOrEqual(1e-4 * Math.max(1, mean));
    // The moving mean after one step: the first replica's slice's update (the other replica's
    // update lands on its mirror, which the broadcast overwrites), not TensorFlow's mean over
    // the replicas' ON_READ copies.
    r.moving.forEach((v, i) => expect(Math.abs(v - r.first_slice[i])).toBeLessThanOrEqual(1e-6));
    expect(r.moving.some((v) => Math.abs(v) > 1e-4)).toBe(true);
  }, 120_000);

  it("fit epochs after the first leave both GPUs' memory flat", async () => {
    const bytes = () => ['gpu:0', 'gpu:1'].map((d) => memoryAllocated(getDevice(d)));
    await python.run('start_mirrored()');
    // The first epoch makes the optimizer slots, the metrics' variables and the replicas' copies.
    const first = (await python.run('mirrored_epochs(1)')) as number[];
    const before = bytes();
    const last = (await python.run('mirrored_epochs(2)')) as number[];
    // Within one 0-d value left to the collector's timing, as keras-new-layers-memory.test.ts.
    bytes().forEach((now, i) => expect(now - before[i]).toBeLessThanOrEqual(8));
    // The recurrent model learns; the subclassed one's last batch of 2 gives each replica one row,
    // which its BatchNormalization normalises to zero (as TensorFlow's would), so only finite.
    expect(last[0]).toBeLessThan(first[0]);
    expect(Number.isFinite(last[1])).toBe(true);
  }, 120_000);
});
