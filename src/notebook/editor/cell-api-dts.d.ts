/** Types of the virtual module served by scripts/cell-api-dts.ts (cellApiDtsPlugin). */
declare module 'virtual:cell-api-dts' {
  /** One ambient .d.ts declaring the cell API and the cell globals. */
  const dts: string;
  export default dts;
  /** The global names that .d.ts declares (print, display, torch, tf, …). */
  export const cellGlobals: string[];
}
