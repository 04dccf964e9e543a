/**
 * The one place that decides how the panels' hints spell the API: a Python notebook shows the
 * names its Python faces accept (src/api/python/: snake_case, keyword arguments, `with` blocks),
 * a TypeScript notebook the TypeScript layer's (src/api/). Panels read their notebook's table
 * through `useSnippets`; each entry is text to show inside <code>, exactly as a cell writes it.
 */
import type { CellLanguage } from '../../kernel/protocol';

export interface Snippets {
  /** The device panel's "Empty cache" button. */
  emptyCache: string;
  memoryAllocated: string;
  /** Whole statements for the settings form's fields. */
  setVisibleDevices: string;
  setMemoryGrowth: string;
  setLogicalDeviceConfiguration: string;
  /** One logical GPU with a memory limit in MiB, as the split's list holds them. */
  logicalDevice: string;
  listPhysicalDevices: string;
  listLogicalDevices: string;
  /** Placing tensors on a device: TensorFlow's scope and PyTorch's move. */
  deviceScope: string;
  toDevice: string;
  /** Timing a cell's own code, as the timing panel does. */
  clock: string;
  compareDevices: string;
  /** The files panel: what writes and reads the browser's file store. */
  save: string;
  load: string;
}

const TYPESCRIPT: Snippets = {
  emptyCache: 'torch.cuda.emptyCache()',
  memoryAllocated: 'torch.cuda.memoryAllocated()',
  setVisibleDevices: 'tf.config.setVisibleDevices([gpu], "GPU")',
  setMemoryGrowth: 'tf.config.experimental.setMemoryGrowth(gpu, true)',
  setLogicalDeviceConfiguration: 'tf.config.setLogicalDeviceConfiguration(gpu, [...])',
  logicalDevice: 'new tf.config.LogicalDeviceConfiguration({ memoryLimit: 1024 })',
  listPhysicalDevices: 'tf.config.listPhysicalDevices("GPU")',
  listLogicalDevices: 'tf.config.listLogicalDevices("GPU")',
  deviceScope: 'tf.device("/GPU:0", () => { … })',
  toDevice: "x.to('cuda:0')",
  clock: 'performance.now()',
  compareDevices: 'await compareDevices((device) => { … })',
  save: 'await torch.save(obj, name)',
  load: 'await torch.load(name)',
};

const PYTHON: Snippets = {
  emptyCache: 'torch.cuda.empty_cache()',
  memoryAllocated: 'torch.cuda.memory_allocated()',
  setVisibleDevices: 'tf.config.set_visible_devices([gpu], "GPU")',
  setMemoryGrowth: 'tf.config.experimental.set_memory_growth(gpu, True)',
  setLogicalDeviceConfiguration: 'tf.config.set_logical_device_configuration(gpu, [...])',
  logicalDevice: 'tf.config.LogicalDeviceConfiguration(memory_limit=1024)',
  listPhysicalDevices: 'tf.config.list_physical_devices("GPU")',
  listLogicalDevices: 'tf.config.list_logical_devices("GPU")',
  deviceScope: "with tf.device('/GPU:0'):",
  toDevice: "x.to('cuda:0')",
  clock: 'time.perf_counter()',
  compareDevices: 'compare_devices(lambda device: …)',
  save: 'torch.save(obj, name)',
  load: 'torch.load(name)',
};

export const SNIPPETS: Readonly<Record<CellLanguage, Snippets>> = {
  typescript: TYPESCRIPT,
  python: PYTHON,
};

export function snippetsFor(language: CellLanguage): Snippets {
  return SNIPPETS[language];
}
