// Reads a process's CPU time and resident memory from Linux /proc (proc(5)), so a server is
// measured from outside without any hook in its code: the mock, the bare server and Prism alike.
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/PID/stat times; 100 on every Linux we run on (`getconf CLK_TCK`). */
const TICKS_PER_SECOND = 100;

/** User + system CPU time of a process so far, in ms (proc(5): fields 14 utime and 15 stime). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Resident set size of a process now, in MB (proc(5): VmRSS in /proc/PID/status). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status);
  return kb ? Number(kb[1]) / 1024 : NaN;
}

/** Peak resident set size of a process so far, in MB (proc(5): VmHWM, the high-water mark of VmRSS). */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(status);
  return kb ? Number(kb[1]) / 1024 : NaN;
}
