/** The open notebook's spelling table (TypeScript when no notebook is open). */
import { notebookLanguage } from '../../notebook/model';
import { useAppStore } from '../../notebook/store/context';
import { snippetsFor, type Snippets } from './snippets';

export function useSnippets(): Snippets {
  const language = useAppStore((s) => (s.notebook ? notebookLanguage(s.notebook) : 'typescript'));
  return snippetsFor(language);
}
