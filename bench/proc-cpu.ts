/**
 * CPU time of processes read from /proc (Linux): per pid, and summed over every process with a given command name
 * (the PostgreSQL backends come and go, so they are found by name at each reading). Lets a benchmark say where
 * the cores went per request, which is what bounds a scaling ratio on a small machine.
 */
import fs from 'node:fs';

const TICKS_PER_SECOND = 100;

/** utime + stime of one process in ms, or 0 once it is gone. */
export function pidCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Summed CPU ms of every live process whose /proc/<pid>/comm is `name`. */
export function commandCpuMs(name: string): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) total += pidCpuMs(Number(entry));
    } catch {
      // the process ended between the listing and the read
    }
  }
  return total;
}

/** This process's own CPU in ms. */
export function selfCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** CPU ms of each thread of a process, summed by thread name (/proc/<pid>/task/<tid>/comm). */
export function threadCpuMs(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName;
  }
  for (const tid of tids) {
    try {
      const name = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const label = tid === String(pid) ? 'main thread' : name;
      byName.set(label, (byName.get(label) ?? 0) + taskCpuMs(pid, tid));
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return byName;
}

function taskCpuMs(pid: number, tid: string): number {
  const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}
