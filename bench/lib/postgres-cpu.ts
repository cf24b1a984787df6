import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProcessSampler } from './server-process';

/** The embedded PostgreSQL's postmaster (first line of postmaster.pid), or null for an external server. */
export function postmasterPid(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * CPU seconds used so far by the postmaster and its children (the backends serving the servers' pools, which stay
 * connected through a scenario): PostgreSQL shares the machine's cores with the server, so its cost per request
 * belongs in the report too.
 */
export function postgresCpuSeconds(postmaster: number): number | null {
  let total = ProcessSampler.readCpuSeconds(postmaster);
  if (total === null) return null;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === postmaster) total += ProcessSampler.readCpuSeconds(Number(entry)) ?? 0;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}
