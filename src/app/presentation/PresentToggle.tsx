/** The toolbar button that enters or leaves classroom (presentation) mode. */
import { ToggleButton } from '../../notebook/ui/ToggleButton';
import { enterPresentation, leavePresentation, usePresentMode } from './presentMode';

export function PresentToggle() {
  const presenting = usePresentMode();
  return (
    <ToggleButton
      className={`button${presenting ? ' button-primary' : ''}`}
      testId="present-toggle"
      pressed={presenting}
      title={
        presenting
          ? 'Leave presentation (Esc)'
          : 'Present one section at a time (←/→ to step, Esc to leave)'
      }
      onClick={presenting ? leavePresentation : enterPresentation}
    >
      {presenting ? 'Exit presentation' : 'Present'}
    </ToggleButton>
  );
}
