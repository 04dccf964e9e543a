/**
 * Library forwards release what no program can hold (module.ts, `libraryForward`): a module tree
 * made only of our layers frees the tensors passed between its layers when the call returns, so a
 * step sweep has nothing of them to move to the host; a tree with any user forward or hook keeps
 * everything a program could have reached.
 */
import { describe, expect, it } from 'vitest';
import type { Device } from '../devices/device';
import { setParkingLimit, spillTraffic, synchronize } from '../devices/stats';
import { memoryStats, stepBoundary } from '../memory';
import * as ops from '../ops';
import { manualSeed } from '../random';
import type { Tensor } from '../tensor';
import { testDevices } from '../testing/devices';
import { SGD } from '../optim';
import { Linear, Module, ReLU, Sequential } from './index';

const devices = await testDevices();

const IN = 5;
const HIDDEN = 4;
const BATCH = 3;

/** Float64 forward of Linear → ReLU → Linear(→1) and d(sum of outputs)/dW1, by hand. */
function reference(
  x: number[],
  w1: number[],
  b1: number[],
  w2: number[],
  b2: number[],
): { out: number[]; gradW1: number[] } {
  const out: number[] = [];
  const gradW1 = new Array<number>(HIDDEN * IN).fill(0);
  for (let n = 0; n < BATCH; n++) {
    let o = b2[0];
    for (let h = 0; h < HIDDEN; h++) {
      let pre = b1[h];
      for (let i = 0; i < IN; i++) pre += x[n * IN + i] * w1[h * IN + i];
      if (pre > 0) {
        o += pre * w2[h];
        for (let i = 0; i < IN; i++) gradW1[h * IN + i] += w2[h] * x[n * IN + i];
      }
    }
    out.push(o);
  }
  return { out, gradW1 };
}

async function values(t: Tensor): Promise<number[]> {
  return Array.from(await t.data());
}

function mlp(device: Device): { l1: Linear; l2: Linear; seq: Sequential } {
  const l1 = new Linear(IN, HIDDEN);
  const l2 = new Linear(HIDDEN, 1);
  const seq = new Sequential(l1, new ReLU(), l2);
  seq.to(device);
  return { l1, l2, seq };
}

describe.each(devices.map((d) => [d.name, d] as const))('library forwards on %s', (_, device) => {
  it('a tree of library layers returns only its output; values and gradients are exact', async () => {
    manualSeed(7);
    const { l1, l2, seq } = mlp(device);
    const x = ops.randn([BATCH, IN], { device });
    const before = memoryStats().liveTensors;
    const out = seq(x);
    // Only the output is left to the program: the Linear and ReLU results between layers went.
    expect(memoryStats().liveTensors - before).toBe(1);
    ops.sum(out).backward();
    const ref = reference(
      await values(x),
      await values(l1.weight),
      await values(l1.bias as Tensor),
      await values(l2.weight),
      await values(l2.bias as Tensor),
    );
    const got = await values(out);
    got.forEach((v, i) => expect(v).toBeCloseTo(ref.out[i], 5));
    const grad = await values(l1.weight.grad as Tensor);
    grad.forEach((v, i) => expect(v).toBeCloseTo(ref.gradW1[i], 5));
  });

  it('training steps through a library tree move nothing to the host but what the program got', async () => {
    manualSeed(8);
    const { seq } = mlp(device);
    const x = ops.randn([BATCH, IN], { device }).keep();
    // Gradients zeroed in place, so the only tensors a step drops are what the program was given.
    const sgd = new SGD(seq.parameters(), { lr: 0.01 });
    const spilledBySweep: number[] = [];
    // Sweeps spill at once here (no parking): what they move is what they found.
    setParkingLimit(device, 0);
    try {
      for (let step = 0; step < 6; step++) {
        sgd.zeroGrad({ setToNone: false });
        ops.sum(seq(x)).backward();
        const before = spillTraffic(device).spilled;
        sgd.step(); // ends the step: the sweep
        spilledBySweep.push(spillTraffic(device).spilled - before);
      }
    } finally {
      setParkingLimit(device, null);
    }
    await synchronize(device);
    // A sweep moves the output [3, 1] and the summed loss of the step two steps back (a program
    // might hold them), and nothing of the hidden layer's [3, 4] activations. (The second sweep
    // also moves what building the net left behind.)
    expect(spilledBySweep[0]).toBe(0);
    expect(spilledBySweep.slice(2)).toEqual([16, 16, 16, 16]);
  });

  it('user code anywhere in the tree keeps every tensor it could have reached', async () => {
    manualSeed(9);
    const stash: Record<string, Tensor> = {};
    class Remember extends Module {
      override forward(input: Tensor): Tensor {
        stash.input = input; // an intermediate of the Sequential around it
        return input;
      }
    }
    class RememberingLinear extends Linear {
      override forward(input: Tensor): Tensor {
        const out = super.forward(input);
        stash.own = ops.mul(out, 2);
        return out;
      }
    }
    const l1 = new Linear(IN, HIDDEN);
    const relu = new ReLU();
    relu.registerForwardHook((_m, _in, output) => {
      stash.hooked = output as Tensor;
      return undefined;
    });
    const net = new Sequential(l1, new Remember(), relu, new RememberingLinear(HIDDEN, 2));
    net.to(device);
    const x = ops.randn([BATCH, IN], { device });
    const out = net(x);
    const expected = {
      input: await values(
        ops.add(ops.matmul(x, ops.transpose(l1.weight, 0, 1)), l1.bias as Tensor),
      ),
      hooked: await values(ops.relu(stash.input)),
      own: await values(ops.mul(out, 2)),
    };
    for (let step = 0; step < 4; step++) stepBoundary();
    for (const key of ['input', 'hooked', 'own'] as const) {
      const got = await values(stash[key]);
      got.forEach((v, i) => expect(v).toBeCloseTo(expected[key][i], 5));
    }
  });
});
