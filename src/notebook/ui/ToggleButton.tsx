/** A toolbar button that turns something on and off, and says which (`aria-pressed`). */
import type { ReactNode } from 'react';

export function ToggleButton({
  className,
  testId,
  pressed,
  title,
  onClick,
  children,
}: {
  className: string;
  testId: string;
  pressed: boolean;
  title?: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={className}
      data-testid={testId}
      aria-pressed={pressed}
      title={title}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
