import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
export const WEB_DIST = path.join(REPO_ROOT, 'apps', 'web', 'dist');
/** Screenshots and page logs; gitignored, kept by CI as the run's evidence. */
export const ARTIFACTS_DIR = path.join(REPO_ROOT, 'e2e', 'artifacts');
