import { useEffect } from 'react';
import { navigate } from './history.ts';

/** Replaces the current address once rendered (never pushes: Back must not bounce into the redirect again). */
export function Redirect({ to }: { to: string }) {
  useEffect(() => {
    navigate(to, { replace: true });
  }, [to]);
  return null;
}
