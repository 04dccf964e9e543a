/** Saving and loading: the safetensors format, torch.save / torch.load and the file store. */
export {
  decodeSafetensors,
  encodeSafetensors,
  type HostTensor,
  type SafetensorsFile,
} from './safetensors';
export { decodeObject, encodeObject, load, save } from './save-load';
export { getTensorStore, memoryTensorStore, setTensorStore, type TensorStore } from './store';
