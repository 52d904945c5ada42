import { Svg } from '../../ui/icons';

/** Icons of the channel list and search (24 px line icons, decorative: the control carries the label). */
export const PinIcon = () => (
  <Svg>
    <path d="M9 4h6l-1 6 3 3H7l3-3zM12 13v7" />
  </Svg>
);
export const MutedIcon = () => (
  <Svg>
    <path d="M18 16H6l1.5-2V10a4.5 4.5 0 0 1 7.6-3.3M17 9.5V14l1 2M10 19a2 2 0 0 0 4 0M4 4l16 16" />
  </Svg>
);
export const SearchIcon = () => (
  <Svg>
    <circle cx="11" cy="11" r="6" />
    <path d="M16 16l4 4" />
  </Svg>
);
