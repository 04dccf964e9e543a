/** Downloads of the open notebook: `.ipynb` (Jupyter's format) and `.ts` (the code as a script). */
import { toIpynb, toTypeScript } from '../notebook/files/ipynb';
import { downloadText, fileNameFor } from '../notebook/files/notebook-files';
import type { Notebook } from '../notebook/model';

export function downloadIpynb(notebook: Notebook): void {
  downloadText(
    fileNameFor(notebook.title, 'ipynb'),
    `${JSON.stringify(toIpynb(notebook), null, 1)}\n`,
    'application/x-ipynb+json',
  );
}

export function downloadTypeScript(notebook: Notebook): void {
  downloadText(fileNameFor(notebook.title, 'ts'), toTypeScript(notebook), 'text/typescript');
}
