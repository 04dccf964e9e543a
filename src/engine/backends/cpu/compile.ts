/**
 * Generated JavaScript for the CPU's loops (elementwise.ts, fused-loop.ts): a function compiled
 * from source with `new Function`, so each loop gets its own JIT type feedback and inlines the
 * element-wise table's functions it is handed. The kernel worker's policy allows `'unsafe-eval'`
 * (it compiles cells); where a policy refuses it, `compile` returns null from then on and callers
 * keep their generic loops.
 */

let evalRefused = false;

/**
 * `function name(params) { body }`, made inside a scope holding `bound` (the names the body reads,
 * with their values); null where eval is refused.
 */
export function compile<T>(
  name: string,
  params: string,
  body: string,
  bound: Readonly<Record<string, unknown>> = {},
): T | null {
  if (evalRefused) return null;
  const names = Object.keys(bound);
  try {
    const make = new Function(...names, `return function ${name}(${params}) {\n${body}\n};`) as (
      ...values: unknown[]
    ) => T;
    return make(...names.map((n) => bound[n]));
  } catch (error) {
    if (error instanceof EvalError) {
      evalRefused = true;
      return null;
    }
    throw error;
  }
}
