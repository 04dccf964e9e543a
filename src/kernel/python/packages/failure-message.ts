/**
 * What `import numpy` raises when numpy could not be loaded: the package and version, the URL
 * tried, why, and what the user can do about it (ModuleNotFoundError's message, built here and
 * raised by the import guard).
 */
import type { PackageFailureReason } from '../../protocol';
import type { LockEntry } from './lock';

export interface PackageFailure {
  entry: LockEntry;
  url: string;
  reason: PackageFailureReason | 'install' | 'dependency';
  /** The fetcher's or installer's own words. */
  detail: string;
  /** For 'dependency': the package that failed first. */
  cause?: PackageFailure;
}

const REMEDY =
  'To fix it: go online once (gpubook keeps the packages it has loaded), or set the package ' +
  'base in Settings to a mirror you can reach, or use "Make Python packages available offline" ' +
  'on the home page while online.';

/** A few words for the progress line. */
export function shortReason(failure: PackageFailure): string {
  switch (failure.reason) {
    case 'offline':
      return 'offline';
    case 'http':
      return /HTTP \d+/.exec(failure.detail)?.[0] ?? 'HTTP error';
    case 'integrity':
      return 'integrity mismatch';
    case 'refused':
      return 'refused';
    case 'install':
      return 'install failed';
    case 'dependency':
      return `needs ${label(failure.cause?.entry)}`;
  }
}

function label(entry: LockEntry | undefined): string {
  return entry ? `${entry.name} ${entry.version}` : 'a dependency';
}

function why(failure: PackageFailure): string {
  const at = failure.url ? ` from ${failure.url}` : '';
  switch (failure.reason) {
    case 'offline':
      return `it could not be downloaded${at}: the package server is unreachable (offline?) — ${failure.detail}.`;
    case 'http':
      return `it could not be downloaded${at}: ${shortReason(failure)} — ${failure.detail}.`;
    case 'integrity':
      return `the file downloaded${at} failed its integrity check (its sha256 is not the one the lock names) — ${failure.detail}.`;
    case 'refused':
      return `the page refused to fetch it — ${failure.detail}.`;
    case 'install':
      return `it was downloaded${at} but Pyodide could not install it — ${failure.detail}.`;
    case 'dependency':
      return failure.cause
        ? `it needs ${label(failure.cause.entry)}, and ${why(failure.cause)}`
        : '';
  }
}

/** The message of `ModuleNotFoundError(name=module)` for a package that did not load. */
export function failureMessage(module: string, failure: PackageFailure): string {
  const remedy = failure.reason === 'install' ? '' : ` ${REMEDY}`;
  return (
    `No module named '${module}': gpubook could not load the package ` +
    `${label(failure.entry)}: ${why(failure)}${remedy}`
  );
}
