import type { ReactElement, ReactNode } from 'react';

/** Line icons drawn on a 16×16 grid; decorative, so hidden from assistive technology. */
function Icon({ children, size = 16 }: { children: ReactNode; size?: number }): ReactElement {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.4"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const LeaderboardIcon = (): ReactElement => (
  <Icon>
    <path d="M2.5 13.5h11M4 13.5V8.5h2.2v5M6.9 13.5V3.5h2.2v10M9.8 13.5V6h2.2v7.5" />
  </Icon>
);
export const TraderIcon = (): ReactElement => (
  <Icon>
    <circle cx="8" cy="5.5" r="2.7" />
    <path d="M2.8 14c.6-2.7 2.7-4.3 5.2-4.3s4.6 1.6 5.2 4.3" />
  </Icon>
);
export const LiveIcon = (): ReactElement => (
  <Icon>
    <path d="M1.5 8.5h2.8l1.8-4.5 3.2 9 2-4.5h3.2" />
  </Icon>
);
export const TokensIcon = (): ReactElement => (
  <Icon>
    <ellipse cx="6.5" cy="5" rx="4" ry="2" />
    <path d="M2.5 5v3c0 1.1 1.8 2 4 2M2.5 8v3c0 1.1 1.8 2 4 2" />
    <ellipse cx="10.5" cy="9.5" rx="3" ry="1.5" />
    <path d="M7.5 9.5v2.5c0 .8 1.3 1.5 3 1.5s3-.7 3-1.5V9.5" />
  </Icon>
);
export const CopyTradeIcon = (): ReactElement => (
  <Icon>
    <path d="M2.5 5.5h9l-2.5-2.5M13.5 10.5h-9l2.5 2.5" />
  </Icon>
);
export const WalletsIcon = (): ReactElement => (
  <Icon>
    <rect x="2" y="3.5" width="12" height="9.5" rx="1.5" />
    <path d="M10.5 8.2h3.5M2 6h12" />
  </Icon>
);
export const KeyIcon = (): ReactElement => (
  <Icon>
    <circle cx="5" cy="10.5" r="2.8" />
    <path d="M7 8.5l6-6M11 4.5l1.8 1.8M9.5 6l1.3 1.3" />
  </Icon>
);
export const SettingsIcon = (): ReactElement => (
  <Icon>
    <circle cx="8" cy="8" r="2" />
    <path d="M8 1.8v1.6M8 12.6v1.6M14.2 8h-1.6M3.4 8H1.8M12.4 3.6l-1.1 1.1M4.7 11.3l-1.1 1.1M12.4 12.4l-1.1-1.1M4.7 4.7L3.6 3.6" />
  </Icon>
);
export const ClipboardIcon = (): ReactElement => (
  <Icon size={14}>
    <rect x="5" y="5" width="8.5" height="8.5" rx="1.3" />
    <path d="M11 5V3.8c0-.7-.6-1.3-1.3-1.3H3.8c-.7 0-1.3.6-1.3 1.3v5.9c0 .7.6 1.3 1.3 1.3H5" />
  </Icon>
);
export const CheckIcon = (): ReactElement => (
  <Icon size={14}>
    <path d="M3 8.5l3.2 3L13 4.5" />
  </Icon>
);
export const CloseIcon = (): ReactElement => (
  <Icon size={14}>
    <path d="M4 4l8 8M12 4l-8 8" />
  </Icon>
);
export const WarningIcon = (): ReactElement => (
  <Icon>
    <path d="M8 2.2l6.2 11H1.8z" />
    <path d="M8 6.5v3.2M8 11.6v.1" />
  </Icon>
);
export const SearchIcon = (): ReactElement => (
  <Icon size={14}>
    <circle cx="7" cy="7" r="4.3" />
    <path d="M10.2 10.2l3.3 3.3" />
  </Icon>
);
export const RefreshIcon = (): ReactElement => (
  <Icon size={14}>
    <path d="M13 3.5v3.2H9.8" />
    <path d="M12.7 6.5A5 5 0 1 0 13 9.5" />
  </Icon>
);
export const InfoIcon = (): ReactElement => (
  <Icon>
    <circle cx="8" cy="8" r="6" />
    <path d="M8 7.2v4M8 4.9v.1" />
  </Icon>
);
