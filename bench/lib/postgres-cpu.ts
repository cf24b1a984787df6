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

function statFields(pid: number | string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * CPU seconds used so far by PostgreSQL: the postmaster, its live backends, and the backends that already ended
 * (counted into the postmaster's cutime/cstime). PostgreSQL shares the machine's cores with the server, so its cost
 * per request belongs in the report too.
 */
export function postgresCpuSeconds(postmaster: number): number | null {
  let total: number;
  try {
    const fields = statFields(postmaster);
    total = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(statFields(entry)[1]) === postmaster)
        total += ProcessSampler.readCpuSeconds(Number(entry)) ?? 0;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}
