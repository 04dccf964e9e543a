/**
 * The benchmark's work on our engine, through its own API (ops, nn modules, Adam): a matrix
 * product and the training steps of the chapters' models. Each repetition ends by reading a
 * result back (the product's last row, or the step's loss), so it waits for the device. Used by
 * `npm run bench` and by the app's "benchmark this device".
 */
import type { Device } from '../devices/device';
import * as nn from '../nn';
import { Adam } from '../optim';
import * as ops from '../ops';
import type { Tensor } from '../tensor';
import type { PreparedCase } from './timing';

export type Net = nn.Module & ((x: Tensor) => Tensor);
export type Loss = nn.Module & ((x: Tensor, y: Tensor) => Tensor);

/** The PyTorch chapter's MNIST CNN. */
export function mnistCnn(): Net {
  return new nn.Sequential(
    new nn.Conv2d(1, 32, 3),
    new nn.MaxPool2d(2),
    new nn.Conv2d(32, 64, 5),
    new nn.MaxPool2d(2),
    new nn.Dropout2d(0.1),
    new nn.AdaptiveMaxPool2d(1),
    new nn.Flatten(),
    new nn.Linear(64, 32),
    new nn.ReLU(),
    new nn.Linear(32, 10),
  ) as unknown as Net;
}

/** The TF chapter's Conv1D text classifier (Embedding 30982x7, length 300, 46 topics). */
export class TextNet extends nn.Module {
  embed = new nn.Embedding(30982, 7);
  body = new nn.Sequential(
    new nn.Conv1d(7, 64, 5),
    new nn.ReLU(),
    new nn.MaxPool1d(2),
    new nn.Conv1d(64, 32, 3),
    new nn.ReLU(),
    new nn.MaxPool1d(2),
    new nn.Flatten(),
    new nn.Linear(32 * 73, 46),
  ) as unknown as Net;

  override forward(tokens: Tensor): Tensor {
    const embedded = (this.embed as unknown as Net)(tokens); // [B, 300, 7]
    return this.body(ops.transpose(embedded, 1, 2)); // channels first for Conv1d
  }
}

/** One training step: forward, loss, backward, Adam; resolves with the loss read back. */
export function trainer(
  net: Net,
  loss: Loss,
  x: Tensor,
  y: Tensor,
  lr = 1e-3,
): () => Promise<number> {
  const optimizer = new Adam(net.parameters(), { lr });
  return async () => {
    optimizer.zeroGrad();
    const value = loss(net(x), y);
    value.backward();
    optimizer.step();
    return value.item();
  };
}

/** Flops of an m×k by k×n product. */
export function matmulFlops(m: number, k: number, n: number): number {
  return 2 * m * k * n;
}

/**
 * An m×k by k×n product of kept random operands on `device`. The repetition reads back the
 * product's last row: it waits for the whole product without timing a transfer of m×n floats.
 */
export function matmulCase(device: Device, m: number, k: number, n: number): PreparedCase {
  const on = { device };
  const a = ops.rand([m, k], on).keep();
  const b = ops.rand([k, n], on).keep();
  return {
    run: async () => {
      const c = ops.matmul(a, b);
      const last = ops.select(c, 0, m - 1);
      await last.data();
      last.dispose();
      c.dispose();
    },
    cleanup: () => [a, b].forEach((t) => t.dispose()),
  };
}

/** The chapter's CNN trained on a random batch of MNIST-shaped images. */
export function cnnStep(device: Device, batch: number): () => Promise<number> {
  const on = { device };
  const net = mnistCnn();
  net.to(device);
  const x = ops.randn([batch, 1, 28, 28], on).keep();
  const y = ops.cast(ops.mul(ops.rand([batch], on), 9.99), 'int32').keep();
  return trainer(net, new nn.CrossEntropyLoss() as unknown as Loss, x, y);
}

/** The TF chapter's text model trained on a random batch of token sequences. */
export function textStep(device: Device, batch: number): () => Promise<number> {
  const on = { device };
  const net = new TextNet() as unknown as Net;
  net.to(device);
  const tokens = ops.cast(ops.mul(ops.rand([batch, 300], on), 30981.99), 'int32').keep();
  const y = ops.cast(ops.mul(ops.rand([batch], on), 45.99), 'int32').keep();
  return trainer(net, new nn.CrossEntropyLoss() as unknown as Loss, tokens, y);
}

/** A full-batch linear-regression step (y = 2·x₀ − 3.4·x₁ + 4.2 + noise) over `points` points. */
export function linregStep(device: Device, points: number): () => Promise<number> {
  const on = { device };
  const net = new nn.Linear(2, 1) as unknown as Net;
  net.to(device);
  const x = ops.randn([points, 2], on).keep();
  const noise = ops.mul(ops.randn([points, 1], on), 0.1);
  const w = ops.fromData([[2], [-3.4]], on);
  const y = ops.add(ops.add(ops.matmul(x, w), 4.2), noise).keep();
  return trainer(net, new nn.MSELoss() as unknown as Loss, x, y, 0.03);
}
