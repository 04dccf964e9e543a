/**
 * `tf.test`: the GPU checks at the top of notebooks. A GPU here is a WebGPU adapter the engine
 * found (tf.config's logical GPUs), not a CUDA device: `isGpuAvailable()` says whether tf places
 * tensors on one, and `isBuiltWithCuda()` is false because nothing here is CUDA (the browser
 * reaches GPUs only through WebGPU).
 */
import { bindArgs } from '../args';
import { config } from '../tf-config';

function firstGpu(): string {
  const gpus = config.listLogicalDevices('GPU');
  return gpus.length > 0 ? gpus[0].name : '';
}

export const tfTest = {
  /** TensorFlow's (deprecated) check: true when a GPU is visible to tf. */
  isGpuAvailable(...args: unknown[]): boolean {
    bindArgs(
      { name: 'tf.test.isGpuAvailable', params: ['cudaOnly', 'minCudaComputeCapability'] },
      args,
    );
    return firstGpu() !== '';
  },
  /** The first GPU's device name ('/device:GPU:0'), or '' without one. */
  gpuDeviceName: (): string => firstGpu(),
  /** False: there is no CUDA in a browser; GPUs are reached through WebGPU. */
  isBuiltWithCuda: (): boolean => false,
  /** False: no ROCm either. */
  isBuiltWithRocm: (): boolean => false,
  /** True: the engine runs on GPUs (through WebGPU) when the browser has one. */
  isBuiltWithGpuSupport: (): boolean => true,
};
