/**
 * A jax-js training step for the bench: one `jit` of value-and-grad of a loss and an Adam update
 * written with jax-js ops (its optimizer package, @jax-js/optax, is not on npm), with PyTorch's
 * defaults as ours uses them: betas (0.9, 0.999), eps 1e-8, and AdamW's decoupled decay when
 * `decay` > 0.
 *
 * jax-js frees memory by reference counting: every call consumes its array arguments (`.ref`
 * adds a reference). The step consumes the parameters and moments it is given and returns new
 * ones, so the host keeps exactly one set alive between repetitions and memory stays flat.
 */
import { jit, numpy as np, tree, valueAndGrad } from '@jax-js/jax';

export type Arr = np.Array;
/** Named parameters (a jax-js pytree). */
export type Params = { [name: string]: Arr };
/** A loss of the parameters and the data arrays; it must consume every argument once. */
export type LossFn = (params: Params, data: Arr[]) => Arr;

const BETA1 = 0.9;
const BETA2 = 0.999;
const EPS = 1e-8;

export interface Trainer {
  /** One step: forward, backward, Adam; resolves with the loss read back. */
  step(data: Arr[]): Promise<number>;
  /** Frees the parameters, the moments and the compiled step. */
  dispose(): void;
}

/**
 * Adam (or AdamW) on `params`, which it owns from now on. `data` given to each step is consumed
 * (pass `.ref`s of arrays kept for later steps).
 */
export function adamTrainer(params: Params, loss: LossFn, lr: number, decay = 0): Trainer {
  const zeros = () =>
    Object.fromEntries(Object.entries(params).map(([k, p]) => [k, np.zerosLike(p.ref)])) as Params;
  let state = { p: params, m: zeros(), v: zeros() };
  let t = 0;
  // lrT = lr·√(1−β₂ᵗ)/(1−β₁ᵗ) and epsT = eps·√(1−β₂ᵗ) make p −= lrT·m/(√v + epsT) exactly
  // PyTorch's p −= lr·m̂/(√v̂ + eps); both arrive as [1] arrays so one compiled step serves all t.
  const compiled = jit(
    (
      p: Params,
      m: Params,
      v: Params,
      data: Arr[],
      lrT: Arr,
      epsT: Arr,
    ): [Arr, Params, Params, Params] => {
      const [value, grads] = valueAndGrad(loss)(tree.ref(p), data);
      const nextP: Params = {};
      const nextM: Params = {};
      const nextV: Params = {};
      for (const k of Object.keys(p)) {
        const g = grads[k];
        const mk = m[k].mul(BETA1).add(g.ref.mul(1 - BETA1));
        const vk = v[k].mul(BETA2).add(g.ref.mul(g).mul(1 - BETA2));
        const pk = decay > 0 ? p[k].mul(1 - lr * decay) : p[k];
        const update = mk.ref.div(np.sqrt(vk.ref).add(epsT.ref)).mul(lrT.ref);
        nextP[k] = pk.sub(update);
        nextM[k] = mk;
        nextV[k] = vk;
      }
      lrT.dispose();
      epsT.dispose();
      return [value, nextP, nextM, nextV];
    },
  );
  return {
    step: async (data) => {
      t++;
      const bc1 = 1 - BETA1 ** t;
      const bc2 = 1 - BETA2 ** t;
      const lrT = np.array([(lr * Math.sqrt(bc2)) / bc1]);
      const epsT = np.array([EPS * Math.sqrt(bc2)]);
      const [value, p, m, v] = compiled(state.p, state.m, state.v, data, lrT, epsT);
      state = { p, m, v };
      return (await value.data())[0];
    },
    dispose: () => {
      tree.dispose(state);
      compiled.dispose();
    },
  };
}
