import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { secretsInLogs } from './support/log-check.js';

/** The check that runs after the e2e files finds what it looks for (and passes a clean log). */
describe('e2e server log check', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'caseroom-logcheck-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('flags JWTs, token= and authorization= query strings and the dev secrets', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyX2lkIjoibWFyaWEifQ.c2lnbmF0dXJl';
    const lines = [
      '{"msg":"incoming request","req":{"url":"/chat/connect"}}',
      `{"msg":"incoming request","req":{"url":"/chat/connect?api_key=k&authorization=${jwt}"}}`,
      '{"msg":"incoming request","req":{"url":"/_action?token=abcdef"}}',
      `{"msg":"x","bearer":"${jwt}"}`,
      '{"msg":"config","secret":"caseroom-dev-chat-secret-change-me"}',
    ];
    fs.writeFileSync(path.join(dir, 'server.log'), lines.join('\n'));
    const findings = secretsInLogs(dir);
    expect(findings.map((f) => f.split(': ')[1])).toEqual([
      'a JWT',
      'authorization=',
      'token=',
      'a JWT',
      'caseroom-dev-chat-secret-change-me',
    ]);
    expect(findings.every((f) => !f.startsWith('server.log:1:'))).toBe(true);
  });
});
