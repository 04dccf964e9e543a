/**
 * The Python faces (`torch`, `torchvision`, `torchmetrics`, `torchkeras`, `tqdm`, later
 * `tensorflow`): Python packages written over the same engine and torch-shaped layer the
 * TypeScript cells use. The kernel calls `installPythonPackages` once, after Pyodide has loaded
 * and before the first Python cell runs.
 */
import type { PyodideAPI } from 'pyodide';

export interface PythonHost {
  /**
   * The TypeScript cell globals as the kernel gives them to TypeScript cells (torch, nn, optim,
   * torchvision, torchkeras, torchmetrics, tf, print, display, tqdm, metricsLogger, params, …).
   */
  globals: Record<string, unknown>;
}

/** Writes our Python packages into Pyodide's file system and makes them importable. */
export function installPythonPackages(py: PyodideAPI, host: PythonHost): void {
  // Filled in by the Python faces; until then Python cells run with the standard library only.
  void py;
  void host;
}
