/**
 * Whether an adapter is a CPU emulation of a GPU, by its label. Its own module, free of engine
 * imports, because the page's timing panel asks too and the page bundle carries no engine code.
 * (Only what is said to the reader depends on the name; no kernel is chosen by it.)
 */
export function isEmulatedAdapter(label: string): boolean {
  return /swiftshader|llvmpipe|lavapipe|warp|basic render/i.test(label);
}
