// Which saved versions of a document are kept (issue 14 item 4): every version of the recent past, then one per
// hour, then one per day, then none. The head is always kept, whatever its age. Pure: the server decides with
// it, tests drive it with made-up clocks.

export interface RetentionPolicy {
  /** Every version younger than this is kept (ms). */
  keepAllMs: number;
  /** Then one per clock hour (the last of the hour) for versions younger than this (ms). */
  hourlyMs: number;
  /** Then one per UTC day (the last of the day) for versions younger than this (ms); older ones go. */
  dailyMs: number;
}

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/** The default policy: all of the last hour, hourly for 7 days, daily for 90 days. */
export const DEFAULT_RETENTION: RetentionPolicy = {
  keepAllMs: HOUR_MS,
  hourlyMs: 7 * DAY_MS,
  dailyMs: 90 * DAY_MS,
};

export interface DatedVersion {
  revision: number;
  /** Milliseconds since the epoch. */
  savedAt: number;
}

/**
 * The revisions to keep, from a workspace's versions (any order). Within one hour (or day) bucket the newest
 * version stands for the bucket, so what a user sees for "3 pm" is how the document looked when they left it.
 */
export function retainedRevisions(
  versions: readonly DatedVersion[],
  now: number,
  policy: RetentionPolicy = DEFAULT_RETENTION,
): Set<number> {
  const keep = new Set<number>();
  if (versions.length === 0) return keep;
  const sorted = [...versions].sort((a, b) => a.revision - b.revision);
  keep.add(sorted[sorted.length - 1]!.revision);
  const newestInBucket = new Map<string, number>();
  for (const version of sorted) {
    const age = now - version.savedAt;
    if (age < policy.keepAllMs) {
      keep.add(version.revision);
      continue;
    }
    let bucket: string;
    if (age < policy.hourlyMs) bucket = `h${Math.floor(version.savedAt / HOUR_MS)}`;
    else if (age < policy.dailyMs) bucket = `d${Math.floor(version.savedAt / DAY_MS)}`;
    else continue;
    // Sorted by revision, so a later one in the same bucket replaces the earlier.
    newestInBucket.set(bucket, version.revision);
  }
  for (const revision of newestInBucket.values()) keep.add(revision);
  return keep;
}
