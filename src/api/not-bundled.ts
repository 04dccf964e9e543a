/**
 * The datasets PyTorch and Keras download and gpubook does not bundle. A notebook cannot download
 * them (it runs in the browser with no server of ours to fetch through), so each of their names
 * gives a function that says so and lists what is bundled, in both faces and, through them, in
 * Python. The names are non-enumerable and absent from the types: cells see them only when they
 * call them.
 */

/** What a not-bundled dataset's loader throws (a RuntimeError in Python). */
export class DatasetNotBundledError extends Error {
  override name = 'DatasetNotBundledError';
}

/** `what`: how the cell reached it (`torchvision.datasets.CIFAR10`); `bundled`: the face's list. */
export function notBundledMessage(what: string, bundled: string): string {
  return (
    `${what}: gpubook does not bundle this dataset, and nothing can be downloaded from the ` +
    `notebook (it runs in the browser, with no server to fetch data through). ` +
    `The bundled datasets are ${bundled}.`
  );
}

/** A loader that throws DatasetNotBundledError when called. */
export function notBundled(what: string, bundled: string): () => never {
  return () => {
    throw new DatasetNotBundledError(notBundledMessage(what, bundled));
  };
}

/**
 * `namespace` with a non-enumerable member for each of `names` (a property the namespace does not
 * have), made by `make(name)`. The namespace's type is unchanged.
 */
export function withNotBundled<T extends object>(
  namespace: T,
  names: readonly string[],
  make: (name: string) => unknown,
): T {
  for (const name of names) {
    if (Object.hasOwn(namespace, name)) continue;
    Object.defineProperty(namespace, name, { value: make(name), enumerable: false });
  }
  return namespace;
}
