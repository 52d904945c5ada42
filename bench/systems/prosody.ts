import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './caseroom.js';
import { debVersion, launchXmppServer, type XmppDriver } from './xmpp.js';
import { createArchiveDatabase, prosodySqlOptions, type ArchiveDatabase } from './xmpp-archive.js';

/** Prosody from Debian, configured and started by the bench in a temp dir (not the system service). */

function config(dir: string, port: number, archive: boolean, db?: ArchiveDatabase): string {
  return `-- Written by the Caseroom bench for one scenario.
certificates = "${dir}"
run_as_root = true
pidfile = "${dir}/prosody.pid"
data_path = "${dir}/data"
log = { warn = "${dir}/prosody.log" }
modules_enabled = { "saslauth", "disco", "register", "ping" }
modules_disabled = { "s2s", "offline", "c2s_limits", "limits" }
network_settings = { tcp_backlog = 511 }
c2s_ports = { ${port} }
c2s_interfaces = { "127.0.0.1" }
s2s_ports = {}
http_ports = {}
https_ports = {}
c2s_require_encryption = false
s2s_require_encryption = false
allow_unencrypted_plain_auth = true
allow_registration = true
min_seconds_between_registrations = 0
registration_throttle_max = nil
authentication = "internal_plain"
${db ? prosodySqlOptions(db) : 'storage = "internal"\n'}VirtualHost "localhost"
Component "conference.localhost" "muc"
  modules_enabled = { ${archive ? '"muc_mam"' : ''} }
  restrict_room_creation = false
  muc_room_locking = false
  muc_tombstones = false
  muc_room_default_presence_broadcast = { moderator = true; participant = false; visitor = false }
  muc_room_default_persistent = false
  muc_room_default_public = true
  muc_room_default_history_length = 100
  max_history_messages = 100
  muc_log_by_default = ${archive ? 'true' : 'false'}
  muc_log_all_rooms = ${archive ? 'true' : 'false'}
`;
}

export async function startProsody(options: { archive: boolean }): Promise<XmppDriver> {
  const version = debVersion('prosody');
  if (!version) throw new Error('prosody is not installed');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-prosody-'));
  fs.mkdirSync(path.join(dir, 'data'));
  const port = await freePort();
  const cfg = path.join(dir, 'prosody.cfg.lua');
  // The archive (when on) in a fresh PostgreSQL database, dropped when the driver stops.
  const db = options.archive ? await createArchiveDatabase() : undefined;
  fs.writeFileSync(cfg, config(dir, port, options.archive, db));
  return launchXmppServer({
    name: 'Prosody',
    version,
    command: ['prosody', '-F', '--config', cfg],
    dir,
    port,
    logFile: 'prosody.log',
    timeoutMs: 60_000,
    database: db,
  });
}
