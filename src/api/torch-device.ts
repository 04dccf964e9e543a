/** `torch.device(...)`: PyTorch's device object (type 'cuda' or 'cpu', index), naming our devices. */
import { parseDeviceName } from '../engine';

export class TorchDevice {
  /** 'cuda' for GPUs, as in PyTorch; our canonical device name is in `name`. */
  readonly type: 'cuda' | 'cpu';
  readonly index: number | null;
  /** Canonical name: 'cpu' or 'gpu:N'. */
  readonly name: string;

  constructor(spec: string | { readonly name: string }, index?: number) {
    const text = typeof spec === 'string' && index !== undefined ? `${spec}:${index}` : spec;
    const parsed = parseDeviceName(text);
    this.type = parsed.kind === 'gpu' ? 'cuda' : 'cpu';
    this.index = parsed.kind === 'gpu' ? parsed.index : null;
    this.name = parsed.name;
  }

  toString(): string {
    return this.name;
  }

  toJSON(): string {
    return this.name;
  }
}
