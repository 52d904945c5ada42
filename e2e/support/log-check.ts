import fs from 'node:fs';
import path from 'node:path';
import { E2E_LOG_DIR } from './server.js';

/** The development secrets (packages/server/src/platform/config.ts) and the demo password e2e servers use. */
const KNOWN_SECRETS = [
  'caseroom-dev-chat-secret-change-me',
  'caseroom-dev-auth-secret-change-me',
  'caseroom-demo"', // the password in a JSON value (the demo e-mail domain caseroom.test does not match)
];

/** What must never be in a server log: tokens (in query strings or anywhere) and the known secrets. */
const FORBIDDEN: Array<[string, RegExp]> = [
  ['a JWT', /eyJ[\w-]{4,}\.eyJ[\w-]{4,}\.[\w-]+/],
  ['token=', /token=/i],
  ['authorization=', /authorization=/i],
  ...KNOWN_SECRETS.map((s): [string, RegExp] => [s, new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))]),
];

/** Every finding in the e2e servers' logs, as `file:line: what`. */
export function secretsInLogs(dir = E2E_LOG_DIR): string[] {
  if (!fs.existsSync(dir)) return [];
  const findings: string[] = [];
  for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.log'))) {
    const lines = fs.readFileSync(path.join(dir, name), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const [what, pattern] of FORBIDDEN) {
        if (pattern.test(line)) findings.push(`${name}:${i + 1}: ${what}: ${line.slice(0, 300)}`);
      }
    });
  }
  return findings;
}

/**
 * Vitest global setup of the e2e project: starts with no logs of earlier runs, and after every e2e file has run
 * fails the run when any server log holds a token or a secret.
 */
export function setup(): () => void {
  fs.rmSync(E2E_LOG_DIR, { recursive: true, force: true });
  return () => {
    const findings = secretsInLogs();
    const files = fs.existsSync(E2E_LOG_DIR) ? fs.readdirSync(E2E_LOG_DIR).length : 0;
    if (findings.length > 0) {
      // Vitest reports an error thrown by a global teardown but still exits 0: the exit code says it instead.
      process.exitCode = 1;
      throw new Error(
        `Tokens or secrets in the e2e server logs (${E2E_LOG_DIR}):\n${findings.slice(0, 50).join('\n')}`,
      );
    }
    process.stdout.write(`[e2e] log check: ${files} server log(s), no token or secret\n`);
  };
}
