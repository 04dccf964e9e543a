/**
 * Element-wise fusion (fusing-backend.ts) on every test device: chains give the unfused path's
 * values (bit for bit on the CPU, within float32 rounding on WebGPU) and a float64 reference's,
 * forward and backward, in fewer kernels; memory a pending step needs stays valid.
 */
import { describe, expect, it } from 'vitest';
import type { Device } from '../../devices/device';
import * as ops from '../../ops';
import { SGD } from '../../optim';
import { Storage } from '../../storage';
import type { Tensor } from '../../tensor';
import { dispatches, testDevices } from '../../testing/devices';
import { expectClose, intTensorOf, randomRef, rng, tensorOf } from '../../testing/harness';
import { broadcastShape, ravel, ref, unravel, type Ref } from '../../testing/reference';
import { WebGPUBackend } from '../webgpu';
import { setFusion } from './flag';
import { restoreAfterEach } from './test-support';

const devices = await testDevices();
restoreAfterEach();

/** Runs `fn` on `inputs()` with fusion on or off: its results' values and the kernels it ran. */
async function run(
  device: Device,
  fused: boolean,
  inputs: () => Tensor[],
  fn: (...inputs: Tensor[]) => Tensor[],
): Promise<{ values: (Float32Array | Int32Array)[]; kernels: number }> {
  setFusion(fused);
  const args = inputs();
  await device.backend.synchronize();
  const before = dispatches(device);
  const outs = fn(...args);
  const values = await Promise.all(outs.map((t) => t.data() as Promise<Float32Array | Int32Array>));
  // Read-backs dispatch nothing, so this counts the chains and what ended them.
  const kernels = dispatches(device) - before;
  for (const t of outs) t.dispose();
  return { values, kernels };
}

/** Element-wise f over refs broadcast together (numpy rules), in float64. */
function broadcastMap(inputs: Ref[], f: (...v: number[]) => number): Ref {
  const shape = inputs.map((r) => r.shape).reduce((a, b) => broadcastShape(a, b));
  const n = shape.reduce((a, b) => a * b, 1);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const index = unravel(i, shape);
    const values = inputs.map((r) => {
      const lead = shape.length - r.shape.length;
      const own = r.shape.map((s, d) => (s === 1 ? 0 : index[d + lead]));
      return r.data[ravel(own, r.shape)];
    });
    out[i] = f(...values);
  }
  return ref(shape, out);
}

const sigmoid = (v: number) => 1 / (1 + Math.exp(-v));

describe.each(devices.map((d) => [d.name, d] as const))('fusion on %s', (_, device) => {
  it.each([
    [[7], [7], [7]],
    [[1], [1], [1]],
    [[5, 7], [7], [5, 1]],
    [[3, 1, 4], [2, 1], []],
    [[1023], [1], [1023]],
    [[33, 65], [65], [33, 1]],
  ])('a float chain with broadcasting and scalars: %j %j %j', async (sa, sb, sc) => {
    const random = rng(sa.length * 100 + sb.length * 10 + sc.length);
    const [ra, rb, rc] = [randomRef(sa, random), randomRef(sb, random), randomRef(sc, random)];
    const inputs = () => [tensorOf(ra, device), tensorOf(rb, device), tensorOf(rc, device)];
    const chain = (a: Tensor, b: Tensor, c: Tensor) => {
      // (sigmoid((a - b) * c) + a² / 3) · 0.5 - 1, and max(a, b) - |c|
      const t = ops.sub(
        ops.mul(ops.add(ops.sigmoid(ops.mul(ops.sub(a, b), c)), ops.div(ops.square(a), 3)), 0.5),
        1,
      );
      const u = ops.sub(ops.maximum(a, b), ops.abs(c));
      return [t, u];
    };
    const unfused = await run(device, false, inputs, chain);
    const fused = await run(device, true, inputs, chain);
    const expectT = broadcastMap(
      [ra, rb, rc],
      (a, b, c) => (sigmoid((a - b) * c) + (a * a) / 3) * 0.5 - 1,
    );
    const expectU = broadcastMap([ra, rb, rc], (a, b, c) => Math.max(a, b) - Math.abs(c));
    expectClose(fused.values[0], expectT.data, 'fused t vs float64', 1e-5);
    expectClose(fused.values[1], expectU.data, 'fused u vs float64', 1e-6);
    if (device.kind === 'cpu') expect(fused.values).toEqual(unfused.values);
    else {
      expectClose(fused.values[0], unfused.values[0], 'fused vs unfused t', 1e-6);
      expect(fused.values[1]).toEqual(unfused.values[1]);
    }
    // Eleven element-wise kernels, of which the user holds every result (so each is written):
    // chains end where the shape changes or the backend's buffer bindings run out.
    expect(unfused.kernels).toBe(11);
    expect(fused.kernels).toBeLessThanOrEqual(5);
  });

  it('fills join a chain with the fill kernel casts (float32 and int32)', async () => {
    const random = rng(14);
    const n = 1029;
    const ra = randomRef([n], random);
    const ia = Array.from({ length: n }, () => Math.floor(random() * 41) - 20);
    const inputs = () => [tensorOf(ra, device), intTensorOf(ia, [n], device)];
    const values = [0.1, -7.9, 2 ** 31 + 5.5, 16777217, -0];
    const chain = (a: Tensor, i: Tensor) => {
      const outs: Tensor[] = [];
      for (const value of values) {
        const f = ops.full([n], value, { device });
        const k = ops.full([n], value, { device, dtype: 'int32' });
        outs.push(ops.add(ops.mul(a, f), f), ops.sub(ops.mul(i, k), k), f, k);
      }
      return outs;
    };
    const unfused = await run(device, false, inputs, chain);
    const fused = await run(device, true, inputs, chain);
    expect(fused.values).toEqual(unfused.values);
    values.forEach((value, v) => {
      const f = Math.fround(value);
      const k = value | 0;
      const [af, ik, ff, kk] = fused.values.slice(4 * v, 4 * v + 4);
      expectClose(
        af,
        Array.from(ra.data, (x) => x * f + f),
        `a·${value} + ${value}`,
        1e-6,
      );
      expect(Array.from(ik)).toEqual(ia.map((x) => Math.imul(x, k) - k).map((x) => x | 0));
      expect(Array.from(ff)).toEqual(new Array(n).fill(f));
      expect(Array.from(kk)).toEqual(new Array(n).fill(k));
    });
    expect(fused.kernels).toBeLessThan(unfused.kernels);
  });

  it('an in-place update joins its chain; a transposed read of the target does not', async () => {
    const random = rng(15);
    const n = 1029;
    const [rp, rg] = [randomRef([n], random), randomRef([n], random)];
    const rs = randomRef([6, 6], random);
    const ri = Array.from({ length: 37 }, () => Math.floor(random() * 41) - 20);
    const rf = randomRef([37], random);
    const update = async (fused: boolean) => {
      setFusion(fused);
      const p = tensorOf(rp, device);
      const g = tensorOf(rg, device);
      const s = tensorOf(rs, device);
      const k = intTensorOf(ri, [37], device);
      const f = tensorOf(rf, device);
      await device.backend.synchronize();
      const before = dispatches(device);
      ops.copyInto(p, ops.sub(ops.mul(p, 0.9), ops.mul(g, 0.1))); // p.copy_(0.9 p - 0.1 g)
      await device.backend.synchronize();
      const kernels = dispatches(device) - before;
      const after = ops.add(p, 1); // reads the updated p
      ops.copyInto(s, ops.add(ops.transpose(s, 0, 1), 1)); // every element reads another one
      ops.copyInto(k, ops.mul(f, 7.5)); // float to int32 truncates
      const halves = ops.cat([ops.exp(f), ops.neg(f)]); // assigns into parts of one buffer
      const values = await Promise.all([p, after, s, k, halves].map((t) => t.data()));
      return { values, kernels };
    };
    const unfused = await update(false);
    const fused = await update(true);
    const p = Array.from(rp.data, (v, i) => 0.9 * v - 0.1 * rg.data[i]);
    expectClose(fused.values[0], p, 'p', 1e-6);
    expectClose(
      fused.values[1],
      p.map((v) => v + 1),
      'p + 1',
      1e-6,
    );
    const st = Array.from({ length: 36 }, (_, i) => rs.data[(i % 6) * 6 + Math.floor(i / 6)] + 1);
    expectClose(fused.values[2], st, 'transposed', 1e-6);
    expect(Array.from(fused.values[3])).toEqual(
      Array.from(rf.data, (v) => Math.trunc(Math.fround(Math.fround(v) * 7.5)) | 0),
    );
    expectClose(
      fused.values[4],
      [...Array.from(rf.data, Math.exp), ...Array.from(rf.data, (v) => -v)],
      'cat',
      1e-5,
    );
    if (device.kind === 'cpu') expect(fused.values).toEqual(unfused.values);
    else
      fused.values.forEach((v, i) =>
        expectClose(v, unfused.values[i], `fused vs unfused ${i}`, 1e-6),
      );
    // mul, mul, sub and the assign in one kernel
    expect([unfused.kernels, fused.kernels]).toEqual([4, 1]);
  });

  it('inputs at odd offsets, with strides and transposed', async () => {
    const random = rng(12);
    const rm = randomRef([9, 2], random);
    const rv = randomRef([10], random);
    const inputs = () => [tensorOf(rm, device), tensorOf(rv, device)];
    const chain = (m: Tensor, v: Tensor) => {
      const column = ops.select(m, 1, 1); // stride 2, offset 1
      const tail = ops.narrow(v, 0, 1, 9); // offset 1
      const r = ops.add(ops.mul(column, tail), ops.exp(tail));
      // A contiguous input beside strided ones: read one element at a time like them.
      const less = ops.sub(r, ops.narrow(v, 0, 0, 9));
      const mt = ops.transpose(m, 0, 1); // [2, 9], strides [1, 2]
      return [r, ops.sub(ops.mul(mt, 2), ops.neg(mt)), less];
    };
    const unfused = await run(device, false, inputs, chain);
    const fused = await run(device, true, inputs, chain);
    const r = Array.from({ length: 9 }, (_, i) => {
      const t = rv.data[i + 1];
      return rm.data[2 * i + 1] * t + Math.exp(t);
    });
    const mt = Array.from({ length: 18 }, (_, k) => 3 * rm.data[(k % 9) * 2 + Math.floor(k / 9)]);
    expectClose(fused.values[0], r, 'strided', 1e-5);
    expectClose(fused.values[1], mt, 'transposed', 1e-6);
    expectClose(
      fused.values[2],
      r.map((v, i) => v - rv.data[i]),
      'contiguous and strided',
      1e-5,
    );
    expectClose(fused.values[0], unfused.values[0], 'strided vs unfused', 1e-6);
    expect(fused.values[1]).toEqual(unfused.values[1]);
    expect(fused.kernels).toBe(2);
  });

  it('an int32 chain with comparisons and casts', async () => {
    const random = rng(5);
    const n = 37;
    const ia = Array.from({ length: n }, () => Math.floor(random() * 41) - 20);
    const ib = Array.from({ length: n }, () => Math.floor(random() * 41) - 20);
    const inputs = () => [intTensorOf(ia, [n], device), intTensorOf(ib, [n], device)];
    const chain = (a: Tensor, b: Tensor) => {
      const sum = ops.add(ops.mul(a, b), 7); // int32 throughout
      const bigger = ops.gt(a, b); // int32 0/1
      const mixed = ops.mul(ops.cast(bigger, 'float32'), ops.div(sum, 4)); // float32
      const same = ops.eq(ops.abs(a), ops.abs(b));
      return [sum, bigger, mixed, same];
    };
    const unfused = await run(device, false, inputs, chain);
    const fused = await run(device, true, inputs, chain);
    expect(fused.values).toEqual(unfused.values);
    expect(Array.from(fused.values[0])).toEqual(ia.map((a, i) => a * ib[i] + 7));
    expect(Array.from(fused.values[1])).toEqual(ia.map((a, i) => (a > ib[i] ? 1 : 0)));
    expectClose(
      fused.values[2],
      ia.map((a, i) => (a > ib[i] ? (a * ib[i] + 7) / 4 : 0)),
      'mixed',
      1e-6,
    );
    expect(Array.from(fused.values[3])).toEqual(
      ia.map((a, i) => (Math.abs(a) === Math.abs(ib[i]) ? 1 : 0)),
    );
    expect(fused.kernels).toBeLessThan(unfused.kernels);
  });

  it('gradients through a fused chain match the unfused path and a hand-derived float64', async () => {
    const random = rng(11);
    const rx = randomRef([6, 5], random);
    const rw = randomRef([5], random);
    const grads = async (fused: boolean) => {
      setFusion(fused);
      const x = tensorOf(rx, device, true);
      const w = tensorOf(rw, device, true);
      // loss = Σ tanh(x · w + 1)²
      const loss = ops.sum(ops.square(ops.tanh(ops.add(ops.mul(x, w), 1))));
      const before = dispatches(device);
      loss.backward();
      const kernels = dispatches(device) - before;
      const gx = await (x.grad as Tensor).data();
      const gw = await (w.grad as Tensor).data();
      return { gx, gw, kernels };
    };
    const unfused = await grads(false);
    const fused = await grads(true);
    const n = 30;
    const gx = new Float64Array(n);
    const gw = new Float64Array(5);
    for (let i = 0; i < n; i++) {
      const w = rw.data[i % 5];
      const t = Math.tanh(rx.data[i] * w + 1);
      const g = 2 * t * (1 - t * t);
      gx[i] = g * w;
      gw[i % 5] += g * rx.data[i];
    }
    expectClose(fused.gx, gx, 'dx vs float64', 1e-5);
    expectClose(fused.gw, gw, 'dw vs float64', 1e-5);
    expectClose(fused.gx, unfused.gx, 'dx fused vs unfused', 1e-6);
    expectClose(fused.gw, unfused.gw, 'dw fused vs unfused', 1e-6);
    expect(fused.kernels).toBeLessThan(unfused.kernels);
  });

  it('a linear-regression step dispatches fewer kernels', async () => {
    const step = async (fused: boolean) => {
      setFusion(fused);
      const random = rng(21);
      const x = tensorOf(randomRef([4099, 2], random), device).keep();
      const t = tensorOf(randomRef([4099, 1], random), device).keep();
      const w = tensorOf(randomRef([2, 1], random), device, true).keep();
      const b = tensorOf(randomRef([1], random), device, true).keep();
      const optimizer = new SGD([w, b], 0.1);
      const once = () => {
        optimizer.zeroGrad();
        const y = ops.add(ops.matmul(x, w), b);
        const loss = ops.mean(ops.pow(ops.sub(y, t), 2));
        loss.backward();
        optimizer.step();
        return loss;
      };
      await once().data();
      await device.backend.synchronize();
      const before = dispatches(device);
      const loss = once();
      const kernels = dispatches(device) - before;
      const value = (await loss.data())[0];
      const weights = [...(await w.data()), ...(await b.data())];
      return { kernels, after: dispatches(device) - before, value, weights };
    };
    const unfused = await step(false);
    const fused = await step(true);
    // Unfused: 19 kernels (the gradients become .grad without copies, backward.ts). Chaining the
    // element-wise ops, fills and in-place copies of forward, backward and update saves 10 (the
    // loss's scaling, the gradient's seed and its scaling are one kernel; each parameter's update
    // and its copy_ another), and the two sums (the loss's mean, b's gradient) join the chains
    // that compute what they sum: 2 more. On WebGPU the products join too (products.ts): x @ w
    // (K = 2) as steps of the forward chain, w's gradient xᵀ @ g as two more sums of the
    // backward one, and each long sum takes a pass over its partial sums: 7 (forward and its
    // pass, the loss's scalars, backward and its pass, two updates). The CPU keeps its product
    // kernels: 7 (two products, forward, the loss's scalars, backward, two updates).
    if (device.kind === 'cpu') expect([unfused.after, fused.after]).toEqual([19, 7]);
    else expect([unfused.after, fused.after]).toEqual([unfused.after, 7]);
    expect(fused.value).toBeCloseTo(unfused.value, 5);
    expectClose(Float64Array.from(fused.weights), unfused.weights, 'weights', 1e-5);
  });

  it('a read-back ends the chain; nothing runs before it', async () => {
    setFusion(true);
    const a = tensorOf(randomRef([100], rng(3)), device);
    const before = dispatches(device);
    const b = ops.exp(ops.mul(ops.add(a, 1), 2));
    expect(dispatches(device) - before).toBe(0);
    const values = await b.data();
    expect(dispatches(device) - before).toBe(1);
    const host = await a.data();
    expectClose(
      values,
      Array.from(host, (v) => Math.exp((v + 1) * 2)),
      'read back',
      1e-5,
    );
  });

  it('turning fusion off runs what was recorded', async () => {
    setFusion(true);
    const ra = randomRef([64], rng(6));
    const a = tensorOf(ra, device);
    const before = dispatches(device);
    const b = ops.sqrt(ops.abs(ops.sub(a, 3)));
    expect(dispatches(device) - before).toBe(0);
    setFusion(false);
    expect(dispatches(device) - before).toBe(1);
    const c = ops.add(b, 1); // unfused from here
    expect(dispatches(device) - before).toBe(2);
    expectClose(
      await c.data(),
      Array.from(ra.data, (v) => Math.sqrt(Math.abs(v - 3)) + 1),
      'c',
      1e-5,
    );
  });

  it('a pending step keeps its inputs; an output released before the chain runs is not needed', async () => {
    setFusion(true);
    const ra = randomRef([257], rng(4));
    const a = tensorOf(ra, device);
    const b = ops.exp(a);
    a.dispose(); // b is pending and reads a's memory
    // Allocations made meanwhile must not get a's memory back.
    const filler = ops.full([257], 9, { device });
    const c = ops.mul(b, 2);
    b.dispose();
    const d = ops.sub(c, 1);
    const values = await d.data();
    expectClose(
      values,
      Array.from(ra.data, (v) => Math.exp(v) * 2 - 1),
      'after releases',
      1e-5,
    );
    expect(Array.from(await filler.data())).toEqual(new Array(257).fill(9));
  });

  it('a spill moves a pending output only after its chain has run', async () => {
    setFusion(true);
    const ra = randomRef([300], rng(8));
    const a = tensorOf(ra, device);
    const b = ops.mul(ops.add(a, 0.25), 4);
    Storage.spillAll([b.res.storage]);
    expectClose(
      await b.data(),
      Array.from(ra.data, (v) => (v + 0.25) * 4),
      'spilled',
      1e-6,
    );
  });

  it('chains that differ only in where an operand comes from run different kernels', async () => {
    setFusion(true);
    const ra = randomRef([40], rng(9));
    const a = tensorOf(ra, device);
    // exp(a) + 1.5 and exp(a) + exp(a): step 1 reads scalar 0 in one, step 0 in the other.
    const withScalar = await ops.add(ops.exp(a), 1.5).data();
    const e = ops.exp(a);
    const withStep = await ops.add(e, e).data();
    expectClose(
      withScalar,
      Array.from(ra.data, (v) => Math.exp(v) + 1.5),
      'scalar',
      1e-5,
    );
    expectClose(
      withStep,
      Array.from(ra.data, (v) => 2 * Math.exp(v)),
      'step',
      1e-5,
    );
  });

  it('chains that differ only in how an input is read run different kernels', async () => {
    setFusion(true);
    const random = rng(12);
    const ra = randomRef([41], random);
    const rb = randomRef([41], random);
    // a[1:] is read at an odd offset (element by element); b broadcast from one element in one
    // chain (the same value for every element), b[1:] element by element in the other.
    const a = ops.slice(tensorOf(ra, device), 0, 1, null);
    const b = tensorOf(rb, device);
    const first = ops.slice(b, 0, 0, 1);
    const broadcast = await ops.add(ops.mul(a, ops.expand(first, [40])), 1).data();
    const strided = await ops.add(ops.mul(a, ops.slice(b, 0, 1, null)), 1).data();
    const av = Array.from(ra.data.slice(1));
    expectClose(
      broadcast,
      av.map((v) => v * rb.data[0] + 1),
      'broadcast',
      1e-6,
    );
    expectClose(
      strided,
      av.map((v, i) => v * rb.data[i + 1] + 1),
      'strided',
      1e-6,
    );
  });

  it('the same structure at other shapes reuses the compiled kernel', async () => {
    if (device.kind !== 'gpu') return;
    setFusion(true);
    const chain = async (shape: number[]) => {
      const a = tensorOf(randomRef(shape, rng(shape[0])), device);
      await ops.relu(ops.sub(ops.mul(a, 3), 0.5)).data();
    };
    const compiled = () => fusedKernels(device);
    await chain([17]);
    const first = compiled();
    await chain([1000]);
    await chain([4099]);
    expect(first).toBeGreaterThan(0);
    expect(compiled()).toBe(first);
  });
});

/** How many fused kernels the device's WebGPU backend has compiled (its pipeline cache labels). */
function fusedKernels(device: Device): number {
  const backend = device.realBackend;
  if (!(backend instanceof WebGPUBackend)) throw new Error(`${device.name} is not WebGPU`);
  return backend.context.pipelines.labels().filter((l) => l.startsWith('fused-elementwise')).length;
}
