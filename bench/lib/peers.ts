import { execSync } from 'node:child_process';
import { debVersion } from '../systems/xmpp.js';

const PACKAGES = ['ejabberd', 'erlang-p1-pgsql', 'prosody', 'lua-dbi-postgresql'];

/** Makes sure the peers are installed (apt-get, when allowed), with the system services stopped. */
export function ensurePeers(
  install: boolean,
  log: (m: string) => void,
): { versions: Record<string, string>; notes: string[] } {
  const notes: string[] = [];
  // The servers, and the PostgreSQL drivers their archives use (ejabberd's mod_mam and Prosody's mod_storage_sql).
  const missing = PACKAGES.filter((p) => !debVersion(p));
  if (missing.length && install) {
    log(`installing ${missing.join(', ')} from Debian`);
    try {
      execSync(
        `flock /tmp/apt.lock sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')}'`,
        { stdio: 'ignore', timeout: 600_000 },
      );
    } catch (err) {
      notes.push(`Installing ${missing.join(', ')} failed: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  // apt may start the system services; the bench runs its own instances.
  for (const svc of ['ejabberd', 'prosody']) {
    try {
      execSync(`service ${svc} stop`, { stdio: 'ignore', timeout: 60_000 });
    } catch {
      // not running
    }
  }
  const versions: Record<string, string> = {};
  for (const p of ['ejabberd', 'prosody']) {
    const v = debVersion(p);
    if (v) versions[p] = v;
    else
      notes.push(
        `${p} is not installed${install ? '' : ' (run `npm run bench` to install it)'}; its columns are empty.`,
      );
  }
  for (const p of ['erlang-p1-pgsql', 'lua-dbi-postgresql']) {
    if (!debVersion(p))
      notes.push(
        `${p} is not installed${install ? '' : ' (run `npm run bench` to install it)'}: the scenarios with a message archive (durable, history, reconnect) fail for the peer that needs it.`,
      );
  }
  return { versions, notes };
}
