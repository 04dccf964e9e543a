/**
 * Where engine-side text goes (training logs, model summaries): an injectable writer, so the
 * kernel routes it to the running cell's output and tests capture it.
 */

export type TextWriter = (text: string) => void;

// Without a host, lines go to the console (a worker's console is the browser's devtools).
const consoleWriter: TextWriter = (text) =>
  console.log(text.endsWith('\n') ? text.slice(0, -1) : text);

let writer: TextWriter = consoleWriter;

/** Installs the writer (the kernel: the running cell's stdout); null restores the console. */
export function setTrainingOutput(write: TextWriter | null): void {
  writer = write ?? consoleWriter;
}

/** Writes text (a line gets its newline here if it has none). */
export function writeOutput(text: string): void {
  writer(text.endsWith('\n') ? text : `${text}\n`);
}
