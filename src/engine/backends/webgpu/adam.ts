/**
 * Binds kernels/adam.wgsl: one fused Adam step over up to four parameters per dispatch (as many
 * as the adapter's storage-buffer limit allows, four buffers each), in place.
 */
import type { AdamSlot, AdamStep } from '../../backend';
import adamWgsl from '../../../../kernels/adam.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import { ADAM, ADAM_MAX_SLOTS } from './param-layouts';

const source = ADAM.source(adamWgsl);

const countOf = (slot: AdamSlot): number => slot.param.shape.reduce((a, b) => a * b, 1);

/** Storage bindings (outputs first, as ctx.run expects) and one branch per slot. */
function generated(slots: number): Record<string, string> {
  const range = Array.from({ length: slots }, (_, s) => s);
  const bindings = [
    ...range.flatMap((s) =>
      ['PARAM', 'M', 'V'].map(
        (name, j) =>
          `@group(0) @binding(${1 + 3 * s + j}) var<storage, read_write> ${name}${s}: array<f32>;`,
      ),
    ),
    ...range.map(
      (s) => `@group(0) @binding(${1 + 3 * slots + s}) var<storage, read> GRAD${s}: array<f32>;`,
    ),
  ];
  const branches = range.map((s) =>
    [
      `  if (i < P(P_counts + ${s}u)) {`,
      `    let r = adamUpdate(PARAM${s}[i], GRAD${s}[i], M${s}[i], V${s}[i]);`,
      `    PARAM${s}[i] = r.x;`,
      `    M${s}[i] = r.y;`,
      `    V${s}[i] = r.z;`,
      `    return;`,
      `  }`,
      `  i -= P(P_counts + ${s}u);`,
    ].join('\n'),
  );
  return { BINDINGS: bindings.join('\n'), SLOTS: branches.join('\n') };
}

export function adam(ctx: KernelContext, slots: readonly AdamSlot[], step: AdamStep): void {
  const live = slots.filter((slot) => countOf(slot) > 0);
  for (const slot of live) {
    if (slot.grad.offset !== 0) throw new Error('adam: the gradient must start at element 0');
  }
  const perDispatch = Math.max(
    1,
    Math.min(ADAM_MAX_SLOTS, Math.floor(ctx.device.limits.maxStorageBuffersPerShaderStage / 4)),
  );
  for (let first = 0; first < live.length; first += perDispatch) {
    const group = live.slice(first, first + perDispatch);
    const n = group.length;
    const kernel = ctx.kernel('adam', `${n}`, `${'www'.repeat(n)}${'r'.repeat(n)}`, source, () => ({
      values: generated(n),
    }));
    const counts = group.map(countOf);
    ctx
      .params(ADAM)
      .list('counts', counts)
      .set('beta1', step.beta1)
      .set('beta2', step.beta2)
      .set('stepSize', step.stepSize)
      .set('vScale', step.vScale)
      .set('eps', step.eps)
      .set('weightDecay', step.weightDecay)
      .set('maximize', step.maximize ? 1 : 0);
    const buffers = [
      ...group.flatMap((slot) => [outputOf(slot.param), outputOf(slot.m), outputOf(slot.v)]),
      ...group.map((slot) => gpuOf(slot.grad)),
    ];
    ctx.run(kernel, buffers, grid64(counts.reduce((a, b) => a + b, 0)));
  }
}
