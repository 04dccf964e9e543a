/**
 * Classes that Python code calls without `new` (`transforms.ToTensor()`, `torch.Generator()`):
 * the wrapped class answers a plain call by constructing, and still works with `new` and
 * `instanceof`.
 */

type Constructor = abstract new (...args: never[]) => object;
type Concrete = new (...args: never[]) => object;

export type CallableClass<C extends Constructor> = C &
  ((...args: ConstructorParameters<C>) => InstanceType<C>);

export function callableClass<C extends Concrete>(cls: C): CallableClass<C> {
  return new Proxy(cls, {
    apply: (target, _thisArg, args: unknown[]) => new target(...(args as never[])),
  }) as CallableClass<C>;
}
