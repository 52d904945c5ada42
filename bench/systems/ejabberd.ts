import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './caseroom.js';
import { debVersion, launchXmppServer, type XmppDriver } from './xmpp.js';
import {
  createArchiveDatabase,
  EJABBERD_PG_SCHEMA,
  ejabberdSqlOptions,
  type ArchiveDatabase,
} from './xmpp-archive.js';

/** ejabberd from Debian, configured and started by the bench in a temp dir (not the system service). */

function config(port: number, spool: string, archive: boolean, db?: ArchiveDatabase): string {
  return (
    `hosts: [localhost]
${db ? ejabberdSqlOptions(db) : ''}
loglevel: warning
hide_sensitive_log_data: true
listen:
  - port: ${port}
    ip: "127.0.0.1"
    module: ejabberd_c2s
    backlog: 511
    max_stanza_size: 262144
auth_method: internal
auth_password_format: plain
registration_timeout: infinity
acl:
  loopback:
    ip: ["127.0.0.0/8"]
access_rules:
  register:
    allow: all
  local:
    allow: all
shaper_rules: {}
max_fsm_queue: 100000
modules:
  mod_disco: {}
  mod_register:
    access: register
    ip_access: all
    password_strength: 0
  mod_muc:
    host: "conference.localhost"
    access: all
    access_create: all
    access_persistent: all
    access_admin: none
    history_size: 100
    max_users: 100000
    max_users_admin_threshold: 5
    max_user_conferences: 100000
    max_users_presence: 100000
    min_message_interval: 0
    min_presence_interval: 0
    max_room_id: 100
    default_room_options:
      mam: ${archive ? 'true' : 'false'}
      max_users: 100000
      persistent: false
      logging: false
      presence_broadcast: [moderator]
${archive ? `  mod_mam:\n    default: always\n    db_type: ${db ? 'sql' : 'mnesia'}\n` : ''}`.replace(
      /\n\n/g,
      '\n',
    ) + `# spool: ${spool}\n`
  );
}

/**
 * `nodePrefix`: the Erlang node is `<nodePrefix><c2s port>@localhost` (default prefix `bench`). `cookie`: the
 * Erlang cookie, set on the command line of the node and of every ejabberdctl call on it (through
 * ejabberdctl.cfg), so that nodes given the same cookie can be joined into a cluster (see ejabberd-cluster.ts).
 */
export async function startEjabberd(options: {
  archive: boolean;
  nodePrefix?: string;
  cookie?: string;
}): Promise<XmppDriver> {
  const version = debVersion('ejabberd');
  if (!version) throw new Error('ejabberd is not installed');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ejabberd-'));
  const spool = path.join(dir, 'spool');
  const logs = path.join(dir, 'logs');
  fs.mkdirSync(spool);
  fs.mkdirSync(logs);
  const port = await freePort();
  // The archive (when on) in a fresh PostgreSQL database, dropped when the driver stops.
  const db = options.archive ? await createArchiveDatabase(EJABBERD_PG_SCHEMA) : undefined;
  fs.writeFileSync(path.join(dir, 'ejabberd.yml'), config(port, spool, options.archive, db));
  fs.writeFileSync(
    path.join(dir, 'ejabberdctl.cfg'),
    `ERL_MAX_PORTS=65536\n${options.cookie ? `ERL_OPTIONS="-setcookie ${options.cookie}"\n` : ''}`,
  );
  fs.chmodSync(dir, 0o755);
  // ejabberdctl insists on running the node as the `ejabberd` user; it is started as that user (see
  // launchXmppServer) so that ejabberdctl does not `su` to it, which would cut the open-files limit to 1024.
  const owner = passwdIds('ejabberd');
  for (const p of [dir, spool, logs, path.join(dir, 'ejabberd.yml'), path.join(dir, 'ejabberdctl.cfg')]) {
    fs.chownSync(p, owner.uid, owner.gid);
  }
  const node = `${options.nodePrefix ?? 'bench'}${port}@localhost`;
  return launchXmppServer({
    name: 'ejabberd',
    version,
    command: [
      'ejabberdctl',
      '--config-dir',
      dir,
      '--spool',
      spool,
      '--logs',
      logs,
      '--node',
      node,
      'foreground',
    ],
    dir,
    port,
    logFile: path.join(logs, 'error.log'),
    timeoutMs: 90_000,
    user: { name: 'ejabberd', ...owner },
    database: db,
  });
}

/** The numeric user and group ids of `user` from /etc/passwd (0 when unknown). */
function passwdIds(user: string): { uid: number; gid: number } {
  const fields = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${user}:`))
    ?.split(':');
  return { uid: Number(fields?.[2] ?? 0), gid: Number(fields?.[3] ?? 0) };
}
