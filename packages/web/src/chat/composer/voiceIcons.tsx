import { Svg } from '../../ui/icons';

/** The voice recorder's line icons (`ui/icons`' Svg: 24 px grid, currentColor, decorative). */
export const MicIcon = () => (
  <Svg>
    <rect x="9" y="3" width="6" height="11" rx="3" />
    <path d="M5.5 11a6.5 6.5 0 0013 0M12 17.5V21M8.5 21h7" />
  </Svg>
);
export const PauseIcon = () => (
  <Svg>
    <path d="M9 5v14M15 5v14" />
  </Svg>
);
export const ResumeIcon = () => (
  <Svg>
    <circle cx="12" cy="12" r="5" fill="currentColor" stroke="none" />
  </Svg>
);
export const StopIcon = () => (
  <Svg fill="currentColor">
    <rect x="6.5" y="6.5" width="11" height="11" rx="1.5" />
  </Svg>
);
export const TrashIcon = () => (
  <Svg>
    <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
  </Svg>
);
