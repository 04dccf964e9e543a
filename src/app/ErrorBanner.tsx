/** The app-level error banner (`error-banner`): a bad link or file, a storage problem. */
import { dismissError, useNotices } from './notices';
import './persistence.css';

export function ErrorBanner() {
  const error = useNotices((s) => s.error);
  if (!error) return null;
  return (
    <div className="error-banner app-error" data-testid="error-banner" role="alert">
      <span>{error}</span>
      <button
        type="button"
        className="link-button"
        data-testid="dismiss-error"
        onClick={dismissError}
      >
        Dismiss
      </button>
    </div>
  );
}
