/**
 * `%pip install …` and `!pip install …` lines (also `pip3`, `python -m pip`), which notebooks
 * from Jupyter and Colab start with: the requirements they name. Options (`-q`, `-U`, …) are
 * dropped; ones that point elsewhere (`-r file`, `-i URL`, `-e path`) are reported unsupported.
 */

export interface PipRequirement {
  /** As written (for messages). */
  spec: string;
  name: string;
  /** From `name==version`; other version specifiers are not honoured. */
  version: string | null;
}

export interface PipInstall {
  requirements: PipRequirement[];
  /** Arguments gpubook cannot follow, as written. */
  unsupported: string[];
}

const PIP_INSTALL = /^\s*[%!]\s*(?:python3?\s+-m\s+)?pip3?\s+install\b(.*)$/;
/** Options whose value is the next argument and that we cannot follow. */
const ELSEWHERE = new Set(['-r', '--requirement', '-i', '--index-url', '-e', '--editable', '-c']);
/** Options whose value is the next argument and that do not matter here. */
const WITH_VALUE = new Set(['--extra-index-url', '--target', '-t', '--progress-bar']);

export function pipInstallOf(line: string): PipInstall | null {
  const match = PIP_INSTALL.exec(line);
  if (!match) return null;
  const args = match[1]
    .replace(/\s#.*$/, '')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const requirements: PipRequirement[] = [];
  const unsupported: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i].replace(/^["']|["']$/g, '');
    if (ELSEWHERE.has(arg)) {
      unsupported.push(`${arg} ${args[i + 1] ?? ''}`.trim());
      i++;
    } else if (WITH_VALUE.has(arg)) {
      i++;
    } else if (arg.startsWith('-')) {
      continue;
    } else {
      const spec =
        /^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*(?:==\s*([A-Za-z0-9.+!-]+))?$/.exec(arg);
      if (spec) requirements.push({ spec: arg, name: spec[1], version: spec[2] ?? null });
      else if (/^[A-Za-z0-9]/.test(arg) && !arg.includes('/')) {
        // A version range (`name>=1.2`): the name, newest release.
        const name = /^[A-Za-z0-9][A-Za-z0-9._-]*/.exec(arg)?.[0] ?? arg;
        requirements.push({ spec: arg, name, version: null });
      } else unsupported.push(arg);
    }
  }
  return { requirements, unsupported };
}
