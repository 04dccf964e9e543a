/** A (weighted) running mean on device: torchmetrics' MeanMetric and Keras's metrics.Mean. */
import { noGrad } from '../autograd';
import { cpu } from '../devices/registry';
import { fromData } from '../ops/creation';
import { add, cast, div, mul } from '../ops/elementwise';
import { sum } from '../ops/reduce';
import { expand } from '../ops/broadcast';
import { scopedAll } from '../ops/support';
import { Tensor } from '../tensor';
import { Metric } from './metric';

export class MeanCore extends Metric {
  /** Parts of the sum and count known on the host (plain numbers given to update). */
  private hostSum = 0;
  private hostCount = 0;
  protected override readonly readKind = 'mean';

  clone(): MeanCore {
    return new MeanCore();
  }

  private parts(
    value: Tensor | number,
    weight: Tensor | number = 1,
  ): { sum: Tensor | number; count: Tensor | number } {
    if (typeof value === 'number') {
      if (typeof weight !== 'number')
        throw new TypeError('Mean: a tensor weight needs a tensor value');
      return { sum: value * weight, count: weight };
    }
    if (!(value instanceof Tensor)) throw new TypeError('Mean: value must be a Tensor or a number');
    const v = value.dtype === 'float32' ? value : cast(value, 'float32');
    if (typeof weight === 'number') return { sum: mul(sum(v), weight), count: v.numel() * weight };
    const w = expand(cast(weight, 'float32'), v.shape);
    return { sum: sum(mul(v, w)), count: sum(w) };
  }

  /** Adds values (a tensor of any shape, or a number), optionally weighted. */
  update(value: Tensor | number, weight: Tensor | number = 1): void {
    this.noteUpdate(value);
    noGrad(() => {
      scopedAll(() => {
        const p = this.parts(value, weight);
        if (typeof p.sum === 'number') this.hostSum += p.sum;
        else this.stateTensors.accumulate('sum', p.sum);
        if (typeof p.count === 'number') this.hostCount += p.count;
        else this.stateTensors.accumulate('count', p.count);
        return [];
      });
    });
  }

  protected batchValue(value: Tensor | number, weight: Tensor | number = 1): Tensor {
    return noGrad(() => {
      const [out] = scopedAll(() => {
        const p = this.parts(value, weight);
        const s = typeof p.sum === 'number' ? fromData(p.sum, { device: cpu() }) : p.sum;
        return [div(s, p.count)];
      });
      return out;
    });
  }

  resultTensor(): Tensor {
    return noGrad(() => {
      const deviceSum = this.stateTensors.get('sum');
      const deviceCount = this.stateTensors.get('count');
      const device = (deviceSum ?? deviceCount)?.deviceObject ?? cpu();
      const [out] = scopedAll(() => {
        const total = deviceSum ? add(deviceSum, this.hostSum) : fromData(this.hostSum, { device });
        const count = deviceCount ? add(deviceCount, this.hostCount) : this.hostCount;
        // Keras and torchmetrics give 0 (not NaN) before anything was added.
        return [typeof count === 'number' && count === 0 ? mul(total, 0) : div(total, count)];
      });
      return out;
    });
  }

  protected override resetHost(): void {
    this.hostSum = 0;
    this.hostCount = 0;
  }
}
