/**
 * `tf.config` and `tf.device` in Python (src/api/python/tensorflow/config.py): the chapters' GPU
 * settings on a fresh engine per test (WebGPU in Node, as src/api/tf-config.test.ts), and
 * TensorFlow's RuntimeError once the devices were initialised.
 */
import { create, globals } from 'webgpu';
import { beforeEach, describe, expect, it } from 'vitest';
import { initEngine } from '../../engine';
import { tf } from '../tf';
import { startPython } from './testing/pyodide';

Object.assign(globalThis, globals);
const gpu = create([]);
const python = await startPython({ tf });
await python.run('import tensorflow as tf');

describe('tensorflow tf.config in Python', () => {
  beforeEach(async () => {
    await initEngine({ gpu });
  });

  it('lists devices, sets memory growth and visibility, then refuses changes with RuntimeError', async () => {
    const r = await python.run(`
gpus = tf.config.list_physical_devices("GPU")
out = [repr(gpus), [d.name for d in tf.config.list_physical_devices()]]
gpu0 = gpus[0]
tf.config.experimental.set_memory_growth(gpu0, True)
tf.config.set_visible_devices([gpu0], "GPU")
out.append([d.name for d in tf.config.experimental.list_logical_devices("GPU")])
try:
    tf.config.experimental.set_memory_growth(gpu0, False)
    out.append("no error")
except RuntimeError as e:
    out.append(type(e).__name__ + ": " + str(e).split(". ")[0])
out
`);
    expect(r).toEqual([
      "[PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')]",
      ['/physical_device:CPU:0', '/physical_device:GPU:0'],
      ['/device:GPU:0'],
      'RuntimeError: Physical devices cannot be modified after being initialized',
    ]);
  });

  it("splits one GPU into the chapter's two logical GPUs; tf.device places tensors on them", async () => {
    const r = await python.run(`
gpus = tf.config.experimental.list_physical_devices("GPU")
try:
    tf.config.experimental.set_virtual_device_configuration(gpus[0], [tf.config.experimental.VirtualDeviceConfiguration()])
    out = ["no error"]
except ValueError as e:
    out = [str(e)]
tf.config.experimental.set_virtual_device_configuration(gpus[0],
    [tf.config.experimental.VirtualDeviceConfiguration(memory_limit=1024),
     tf.config.experimental.VirtualDeviceConfiguration(memory_limit=1024)])
logical = tf.config.experimental.list_logical_devices("GPU")
out.append(f"{len(gpus)} Physical GPU, {len(logical)} Logical GPUs")
with tf.device("/gpu:1"):
    x = tf.constant([1, 2, 3])
    with tf.device("/cpu:0"):
        c = tf.constant([1.5])
    y = x * 2
z = tf.constant([4])
out += [x.device, c.device, y.device, z.device, y.numpy()]
try:
    tf.config.set_logical_device_configuration(gpus[0], [tf.config.LogicalDeviceConfiguration(memory_limit=512)])
    out.append("no error")
except RuntimeError as e:
    out.append(type(e).__name__ + ": " + str(e).split(". ")[0])
del x, c, y, z
out
`);
    expect(r).toEqual([
      'Setting memory limit is required for GPU virtual devices',
      '1 Physical GPU, 2 Logical GPUs',
      '/job:localhost/replica:0/task:0/device:GPU:1',
      '/job:localhost/replica:0/task:0/device:CPU:0',
      '/job:localhost/replica:0/task:0/device:GPU:1',
      '/job:localhost/replica:0/task:0/device:GPU:0',
      [2, 4, 6],
      'RuntimeError: Virtual devices cannot be modified after being initialized',
    ]);
  });
});
