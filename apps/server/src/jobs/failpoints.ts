/**
 * Crash points for the tests of recovery: a process started with KOMA_FAILPOINTS naming a point kills itself with
 * SIGKILL when it reaches it, as a power cut or the OOM killer would, at a moment a test could not hit by timing.
 */
export function failpoint(name: 'kill-after-claim'): void {
  const points = process.env.KOMA_FAILPOINTS;
  if (points && points.split(',').includes(name)) process.kill(process.pid, 'SIGKILL');
}
