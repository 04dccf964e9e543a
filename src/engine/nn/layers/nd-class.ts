/**
 * The 1-D and 2-D classes of a layer family: PyTorch's Conv1d and Conv2d, MaxPool1d and MaxPool2d,
 * and Keras's Conv1D and Conv2D, MaxPooling1D and MaxPooling2D.
 */

/** A layer class called with positional arguments (`Positional`) or with one options object. */
export interface NdClass<Instance, Options, Positional extends unknown[]> {
  new (...args: Positional): Instance;
  new (options: Options): Instance;
}

/**
 * `${family}1${d}` and `${family}2${d}`: subclasses of `base` with those names (PyTorch's module
 * reprs print the class name), whose constructors hand their name, 1 or 2 spatial dimensions and
 * their own arguments to `base`.
 */
export function ndClasses<Instance, Options, Positional extends unknown[]>(
  base: abstract new (name: string, dims: 1 | 2, args: unknown[]) => Instance,
  family: string,
  d = 'd',
): [NdClass<Instance, Options, Positional>, NdClass<Instance, Options, Positional>] {
  // A class can extend only a constructor of a known object type; `Instance` is what it makes.
  const Base = base as abstract new (name: string, dims: 1 | 2, args: unknown[]) => object;
  const named = (dims: 1 | 2): NdClass<Instance, Options, Positional> => {
    const name = `${family}${dims}${d}`;
    const byName = {
      [name]: class extends Base {
        constructor(...args: unknown[]) {
          super(name, dims, args);
        }
      },
    };
    return byName[name] as unknown as NdClass<Instance, Options, Positional>;
  };
  return [named(1), named(2)];
}
