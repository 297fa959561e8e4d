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
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name }: { name: IconName }) {
  return (
    <svg
      width="16"
      height="16"
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
