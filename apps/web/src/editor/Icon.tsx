// Line icons drawn inline (no icon font or emoji: both depend on fonts the user's machine may not have).
const PATHS = {
  eye: 'M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z',
  eyeOff:
    'M3 3l18 18 M10.6 5.1A10 10 0 0 1 12 5c7 0 11 7 11 7a17 17 0 0 1-3.2 3.9 M6.3 6.3C3 8.3 1 12 1 12s4 7 11 7a10 10 0 0 0 5.7-1.7',
  lock: 'M5 11h14v10H5z M8 11V7a4 4 0 0 1 8 0v4',
  unlock: 'M5 11h14v10H5z M8 11V7a4 4 0 0 1 7.5-1.9',
  up: 'M12 19V5 M5 12l7-7 7 7',
  down: 'M12 5v14 M19 12l-7 7-7-7',
  clip: 'M4 14h16 M8 10l4 4 4-4 M12 4v10',
  unclip: 'M4 10h16 M8 14l4-4 4 4 M12 20V10',
  copy: 'M8 8h12v12H8z M4 16V4h12',
  trash: 'M4 7h16 M9 7V4h6v3 M6 7l1 13h10l1-13',
  move: 'M12 2v20 M2 12h20 M12 2l-3 3 M12 2l3 3 M12 22l-3-3 M12 22l3-3 M2 12l3-3 M2 12l3 3 M22 12l-3-3 M22 12l-3 3',
  select: 'M4 4h4 M11 4h2 M16 4h4v4 M20 11v2 M20 16v4h-4 M13 20h-2 M8 20H4v-4 M4 13v-2',
  brush: 'M18 3l3 3-10 10-3-3z M8 13c-3 0-4 2-4 4s-1 3-2 3c3 1 8 1 8-4',
  pose: 'M12 3a2 2 0 1 0 0 4 2 2 0 0 0 0-4z M12 7v7 M5 10h14 M12 14l-4 7 M12 14l4 7',
  panel: 'M3 3h18v18H3z M3 11h9 M12 3v18 M12 15h9',
  text: 'M5 5h14 M12 5v14 M9 19h6',
  undo: 'M9 14L4 9l5-5 M4 9h11a5 5 0 0 1 0 10h-3',
  redo: 'M15 14l5-5-5-5 M20 9H9a5 5 0 0 0 0 10h3',
  upload: 'M12 16V4 M7 9l5-5 5 5 M4 16v4h16v-4',
  help: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z M9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3 M12 17h.01',
  layers: 'M12 2l10 5-10 5L2 7z M2 12l10 5 10-5 M2 17l10 5 10-5',
  sliders: 'M4 21v-7 M4 10V3 M12 21v-9 M12 8V3 M20 21v-5 M20 12V3 M1 14h6 M9 8h6 M17 16h6',
  close: 'M6 6l12 12 M18 6L6 18',
  more: 'M5 12h.01 M12 12h.01 M19 12h.01',
  history: 'M3 12a9 9 0 1 0 3-6.7 M3 4v5h5 M12 7v5l3 3',
  grip: 'M9 6h.01 M15 6h.01 M9 12h.01 M15 12h.01 M9 18h.01 M15 18h.01',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 16 }: { name: IconName; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
