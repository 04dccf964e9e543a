/** Small line icons (inline SVG as React elements, so no icon font or network request). */
import type { ReactNode } from 'react';

function Icon({ children, size = 16 }: { children: ReactNode; size?: number }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const PlayIcon = () => (
  <Icon>
    <path d="M5 3.5v9l7-4.5z" fill="currentColor" />
  </Icon>
);
export const PlayAllIcon = () => (
  <Icon>
    <path d="M3 3.5v9l5.5-4.5zM8.5 3.5v9l5.5-4.5z" fill="currentColor" />
  </Icon>
);
export const StopIcon = () => (
  <Icon>
    <rect x="4" y="4" width="8" height="8" rx="1" fill="currentColor" />
  </Icon>
);
export const RestartIcon = () => (
  <Icon>
    <path d="M13 8a5 5 0 1 1-1.5-3.6M13 2.5v3h-3" />
  </Icon>
);
export const ArrowUpIcon = () => (
  <Icon>
    <path d="M8 13V3M4 7l4-4 4 4" />
  </Icon>
);
export const ArrowDownIcon = () => (
  <Icon>
    <path d="M8 3v10M4 9l4 4 4-4" />
  </Icon>
);
export const TrashIcon = () => (
  <Icon>
    <path d="M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.6 8.5h5.8l.6-8.5" />
  </Icon>
);
export const ClearIcon = () => (
  <Icon>
    <path d="M3 13h10M5 10l6-6M11 10 5 4" />
  </Icon>
);
export const RunAboveIcon = () => (
  <Icon>
    <path d="M8 13V5M5 8l3-3 3 3M3 2.5h10" />
  </Icon>
);
export const InsertAboveIcon = () => (
  <Icon>
    <path d="M8 6V1.5M5.75 3.75h4.5M3 9h10v4.5H3z" />
  </Icon>
);
export const CodeIcon = () => (
  <Icon>
    <path d="M6 4.5 2.5 8 6 11.5M10 4.5 13.5 8 10 11.5" />
  </Icon>
);
export const TextIcon = () => (
  <Icon>
    <path d="M3 4h10M3 8h10M3 12h6" />
  </Icon>
);
export const PlusIcon = () => (
  <Icon size={14}>
    <path d="M8 3v10M3 8h10" />
  </Icon>
);
export const BackIcon = () => (
  <Icon>
    <path d="M10 3.5 5.5 8l4.5 4.5" />
  </Icon>
);
export const Spinner = () => <span className="spinner" aria-hidden="true" />;
