/**
 * Crash points for the tests of recovery: a process started with KOMA_FAILPOINTS naming a point kills itself with
 * SIGKILL when it reaches it, as a power cut or the OOM killer would, at a moment a test could not hit by timing.
 * Read once: the points are set when a process starts, and a claim should not parse the environment each time.
 */
const POINTS = new Set((process.env.KOMA_FAILPOINTS ?? '').split(',').filter(Boolean));

export function failpoint(name: 'kill-after-claim'): void {
  if (POINTS.has(name)) process.kill(process.pid, 'SIGKILL');
}
