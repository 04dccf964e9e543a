/**
 * Downloads of the open notebook: `.ipynb` (Jupyter's format) and the code as a script, `.ts` or,
 * for a Python notebook, `.py`.
 */
import { toIpynb, toPython, toTypeScript } from '../notebook/files/ipynb';
import { downloadText, fileNameFor } from '../notebook/files/notebook-files';
import { notebookLanguage, type Notebook } from '../notebook/model';

export function downloadIpynb(notebook: Notebook): void {
  downloadText(
    fileNameFor(notebook.title, 'ipynb'),
    `${JSON.stringify(toIpynb(notebook), null, 1)}\n`,
    'application/x-ipynb+json',
  );
}

export function downloadScript(notebook: Notebook): void {
  if (notebookLanguage(notebook) === 'python') {
    downloadText(fileNameFor(notebook.title, 'py'), toPython(notebook), 'text/x-python');
  } else {
    downloadText(fileNameFor(notebook.title, 'ts'), toTypeScript(notebook), 'text/typescript');
  }
}
