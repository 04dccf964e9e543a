/** The open notebook's language (`notebook-language`): TypeScript or Python, from its kernelspec. */
import { notebookLanguage } from '../notebook/model';
import { useAppStore } from '../notebook/store/context';

const LABEL = { typescript: 'TypeScript', python: 'Python' } as const;

export function LanguageBadge() {
  const language = useAppStore((s) => (s.notebook ? notebookLanguage(s.notebook) : null));
  if (!language) return null;
  return (
    <span
      className="backend-badge language-badge"
      data-testid="notebook-language"
      data-language={language}
      title={
        language === 'python'
          ? 'Python cells (Pyodide, loaded on the first run) over the same engine'
          : 'TypeScript cells'
      }
    >
      {LABEL[language]}
    </span>
  );
}
