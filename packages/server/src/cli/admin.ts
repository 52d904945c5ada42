/**
 * Administration commands, run on the server's database (DATABASE_URL, or the embedded one under DATA_DIR):
 *
 *   npm run admin -- grant-sadmin EMAIL    give the account the super-admin claim (`sadmin: true`)
 *   npm run admin -- revoke-sadmin EMAIL   take it away
 *
 * The claim is read from the database on every request, so `GET /api/me` reflects it at once.
 * The embedded database (PGlite) is single-process: stop the server before running a command on it.
 */
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { openDatabase } from '../platform/open.js';
import { setSuperAdmin } from '../product/users/profiles.js';

const USAGE = `Usage: npm run admin -- <command> <args>

Commands:
  grant-sadmin EMAIL    make the account a super-admin (claim sadmin: true)
  revoke-sadmin EMAIL   remove the super-admin claim
`;

/** Exit codes (sysexits): usage error, unknown account, bad configuration. */
const EX_USAGE = 64;
const EX_NOUSER = 67;
const EX_CONFIG = 78;

type Command = (args: string[], env: NodeJS.ProcessEnv) => Promise<{ code: number; out: string }>;

const sadminCommand =
  (grant: boolean): Command =>
  async (args, env) => {
    const email = args[0];
    if (!email || args.length !== 1) return { code: EX_USAGE, out: USAGE };
    const config = loadConfig(env);
    const db = await openDatabase(config, createLogger('warn'));
    try {
      const found = await setSuperAdmin(db, email, grant);
      if (!found) return { code: EX_NOUSER, out: `No account with the address ${email}\n` };
      return { code: 0, out: `${email} is ${grant ? 'now' : 'no longer'} a super-admin\n` };
    } finally {
      await db.close();
    }
  };

const COMMANDS: Record<string, Command> = {
  'grant-sadmin': sadminCommand(true),
  'revoke-sadmin': sadminCommand(false),
};

/** Runs one command line; answers the exit code and what to print. */
export async function runAdmin(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; out: string }> {
  const [name, ...args] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) return { code: EX_USAGE, out: USAGE };
  try {
    return await command(args, env);
  } catch (err) {
    if (err instanceof ConfigError) return { code: EX_CONFIG, out: `${err.message}\n` };
    throw err;
  }
}

function invokedDirectly(): boolean {
  const script = process.argv[1];
  return script !== undefined && import.meta.url === pathToFileURL(fs.realpathSync(script)).href;
}

if (invokedDirectly()) {
  runAdmin(process.argv.slice(2)).then(
    ({ code, out }) => {
      (code === 0 ? process.stdout : process.stderr).write(out);
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`admin failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
