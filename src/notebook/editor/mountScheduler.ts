/**
 * Spreads the mounting of many editors over several tasks, so opening a long notebook does not
 * freeze the page while twenty Monaco instances are created at once.
 */
import { useEffect, useState } from 'react';

const queue: (() => void)[] = [];
let draining = false;

function drain(): void {
  const next = queue.shift();
  if (!next) {
    draining = false;
    return;
  }
  next();
  setTimeout(drain, 16);
}

function schedule(task: () => void): () => void {
  queue.push(task);
  if (!draining) {
    draining = true;
    setTimeout(drain, 0);
  }
  return () => {
    const index = queue.indexOf(task);
    if (index >= 0) queue.splice(index, 1);
  };
}

/** Follows `wanted`, but turns true only when its turn in the shared queue comes. */
export function useStaggered(wanted: boolean): boolean {
  const [granted, setGranted] = useState(false);
  useEffect(() => {
    if (!wanted) return;
    const cancel = schedule(() => setGranted(true));
    return () => {
      cancel();
      setGranted(false);
    };
  }, [wanted]);
  return wanted && granted;
}
