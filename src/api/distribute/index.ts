/** `tf.distribute`: MirroredStrategy and the names of TensorFlow's cross-device reductions. */
import {
  HierarchicalCopyAllReduce,
  MirroredStrategy,
  NcclAllReduce,
  ReductionToOneDevice,
} from './mirrored-strategy';
import { currentStrategy } from './scope';

export { MirroredStrategy } from './mirrored-strategy';
export { currentStrategy, type DistributeStrategy, type KerasReplicaHooks } from './scope';

export const distribute = {
  MirroredStrategy,
  ReductionToOneDevice,
  HierarchicalCopyAllReduce,
  NcclAllReduce,
  /** The strategy whose scope is open, or null (TensorFlow returns a default strategy). */
  getStrategy: () => currentStrategy(),
  /** Whether a strategy's scope is open. */
  hasStrategy: (): boolean => currentStrategy() !== null,
};
