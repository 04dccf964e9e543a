/** The toolbar button that enters or leaves classroom (presentation) mode. */
import { enterPresentation, leavePresentation, usePresentMode } from './presentMode';

export function PresentToggle() {
  const presenting = usePresentMode();
  return (
    <button
      type="button"
      className={`button${presenting ? ' button-primary' : ''}`}
      data-testid="present-toggle"
      aria-pressed={presenting}
      title={
        presenting
          ? 'Leave presentation (Esc)'
          : 'Present one section at a time (←/→ to step, Esc to leave)'
      }
      onClick={presenting ? leavePresentation : enterPresentation}
    >
      {presenting ? 'Exit presentation' : 'Present'}
    </button>
  );
}
