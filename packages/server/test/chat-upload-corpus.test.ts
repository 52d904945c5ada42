import { chatFileIdOf, type UploadResponse } from '@caseroom/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage, type FileStorage } from '../src/platform/storage/index.js';
import { chatUser, type ChatUserClient } from './chat-support.js';
import { MALICIOUS_FILES } from './fixtures/malicious-files.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { storedBytes, uploadAs } from './helpers/uploads.js';

/**
 * The malicious-file corpus (fixtures/malicious-files.ts): every case must be refused with its code, or stored under
 * its true type with the payload gone where re-encoding removes it — 100 %, each asserted. A refused file leaves no
 * row and no bytes.
 */

describe('malicious-file corpus', () => {
  let server: TestServer;
  let storage: FileStorage;
  let maria: ChatUserClient;
  const outcomes: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ productChatRules: false });
    storage = openStorage(server.config);
    maria = await chatUser(server, 'maria');
  }, 120_000);
  afterAll(async () => {
    // eslint-disable-next-line no-console -- the corpus outcome is part of the report
    console.info(
      `upload corpus: ${outcomes.length}/${MALICIOUS_FILES.length} refused or neutralised\n${outcomes.join('\n')}`,
    );
    await server?.close();
  });

  it.each(MALICIOUS_FILES.map((f) => [f.case, f] as const))('%s', async (_name, file) => {
    const rowsBefore = await server.db.query<{ n: string }>('SELECT count(*) AS n FROM chat_uploads');
    const bytes = await file.bytes();
    const r = await uploadAs<UploadResponse & { code?: number; message?: string }>(
      server,
      { token: maria.token },
      `/uploads/${file.endpoint}`,
      bytes,
      file.name,
      { type: file.declared },
    );
    if ('refused' in file.expect) {
      const want = file.expect.refused;
      expect(r.status, JSON.stringify(r.body)).toBe(want.status);
      expect(r.body.code).toBe(want.code);
      expect(r.body.message).toMatch(want.message);
      const rowsAfter = await server.db.query<{ n: string }>('SELECT count(*) AS n FROM chat_uploads');
      expect(rowsAfter.rows[0]?.n).toBe(rowsBefore.rows[0]?.n);
      outcomes.push(`refused ${r.status}/${want.code}: ${file.case} — ${r.body.message}`);
      return;
    }
    const want = file.expect.stored;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.mime_type).toBe(want.mime);
    const id = chatFileIdOf(r.body.file) ?? '';
    const { rows } = await server.db.query<{ mime_type: string; name: string }>(
      'SELECT mime_type, name FROM chat_uploads WHERE id = $1',
      [id],
    );
    expect(rows[0]?.mime_type).toBe(want.mime);
    if (want.name) expect(rows[0]?.name).toBe(want.name);
    const stored = await storedBytes(storage, `uploads/${id}/original`);
    expect(stored).toBeDefined();
    for (const payload of want.absent ?? []) {
      expect(stored?.includes(Buffer.from(payload, 'latin1')), `${payload} survived`).toBe(false);
    }
    // Served (to its owner while unattached) the way the data says: inline plain media, everything else a download
    // that cannot run (the download route, chat/files/headers.ts).
    const url = new URL(r.body.file, server.url);
    url.searchParams.set('api_key', server.config.chatApiKey);
    const res = await fetch(url, { headers: { authorization: maria.token, 'auth-type': 'jwt' } });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(stored ?? Buffer.alloc(0))).toBe(true);
    expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^${want.serve};`));
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/sandbox/);
    if (want.serve === 'inline') expect(res.headers.get('content-type')).toBe(want.mime);
    else expect(res.headers.get('content-type')).not.toMatch(/html|svg|xml|javascript/);
    outcomes.push(`stored as ${want.mime}, served ${want.serve}: ${file.case}`);
  });
});
