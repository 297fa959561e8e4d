import type { AnchorHTMLAttributes } from 'react';
import { linkClick } from './history.ts';

type Props = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'onClick'> & { to: string };

/** An anchor that navigates inside the app without reloading; it stays a real link for keyboards and new tabs. */
export function Link({ to, ...rest }: Props) {
  return <a href={to} onClick={linkClick(to)} {...rest} />;
}
