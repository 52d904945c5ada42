import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signChatToken } from '../src/chat/auth.js';
import { expireUploads } from '../src/chat/files/lifecycle.js';
import { createLogger } from '../src/platform/logger.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createTestUpload, storageOf, type TestUpload } from './helpers/uploads.js';
import { chatCall, chatUser, type ChatUserClient } from './chat-support.js';

/**
 * Stored files after they are stored (issue 14): who may read them (the read rule), their headers, ranges, caching,
 * resized images, attaching them to messages, and their lifecycle with the message. Real HTTP on PostgreSQL and
 * PGlite; the uploads are made with the test helper (`helpers/uploads.ts`) exactly as the upload endpoints make
 * them.
 */

let server: TestServer;
let serverToken: string;
/** Sender and channel owner. */
let maria: ChatUserClient;
/** A member all along. */
let noah: ChatUserClient;
/** A member who is removed during a test. */
let rita: ChatUserClient;
/** A member who is banned. */
let ben: ChatUserClient;
/** Invited, has not answered. */
let pia: ChatUserClient;
/** No relation to the channel. */
let olga: ChatUserClient;

const CID = 'messaging:files';
const CHANNEL = '/channels/messaging/files';
const OTHER_CID = 'messaging:files-other';

interface FileReply {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** A GET of a file URL with the token in the `Authorization` header (or in the query with `viaQuery`). */
async function getFile(
  path: string,
  token: string | undefined,
  options: { query?: Record<string, string>; headers?: Record<string, string>; viaQuery?: boolean } = {},
): Promise<FileReply> {
  const url = new URL(path, server.url);
  url.searchParams.set('api_key', server.config.chatApiKey);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = { 'auth-type': token ? 'jwt' : 'anonymous', ...options.headers };
  if (token && options.viaQuery) url.searchParams.set('authorization', token);
  else if (token) headers.authorization = token;
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const json = (r: FileReply) => JSON.parse(r.bytes.toString('utf8')) as { code: number; message: string };

const textFile = (owner: string, name = 'notes.txt', extra: { cid?: string } = {}) =>
  createTestUpload(server, {
    owner,
    bytes: Buffer.from(`notes of ${owner}`),
    name,
    mimeType: 'text/plain',
    ...extra,
  });

/** Sends a message by `who` in the channel carrying `uploads` as file attachments; answers the HTTP reply. */
function sendWith(
  who: ChatUserClient,
  uploads: TestUpload[],
  extra: Record<string, unknown> = {},
  channel = CHANNEL,
) {
  return who.call('POST', `${channel}/message`, {
    message: { attachments: uploads.map((u) => ({ type: 'file', asset_url: u.url })), ...extra },
  });
}

async function uploadRow(id: string) {
  const { rows } = await server.db.query<{ message_id: string | null; cid: string | null; state: string }>(
    'SELECT message_id, cid, state FROM chat_uploads WHERE id = $1',
    [id],
  );
  return rows[0];
}

describe.each(['postgres', 'pglite'] as const)('stored files (%s)', (database) => {
  beforeAll(async () => {
    server = await startTestServer({
      database,
      productChatRules: false,
      env: { LOG_LEVEL: 'info' },
      captureLog: true,
    });
    serverToken = await signChatToken(server.config, { server: true });
    maria = await chatUser(server, 'maria');
    noah = await chatUser(server, 'noah');
    rita = await chatUser(server, 'rita');
    ben = await chatUser(server, 'ben');
    pia = await chatUser(server, 'pia');
    olga = await chatUser(server, 'olga');
    const api = server.app.chat.server;
    await api.getOrCreateChannel(
      'messaging',
      'files',
      { members: ['maria', 'noah', 'rita', 'ben'] },
      'maria',
    );
    await api.getOrCreateChannel('messaging', 'files-other', { members: ['maria'] }, 'maria');
    await server.db.query(
      `INSERT INTO chat_members (cid, user_id, channel_role, invited, unread_seq)
     VALUES ($1, 'pia', 'channel_member', true, 0)`,
      [CID],
    );
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  describe('who may read a stored file', () => {
    it('serves an unattached upload to its owner (and the server) only', async () => {
      const upload = await textFile('maria');
      const own = await getFile(upload.url, maria.token);
      expect(own.status).toBe(200);
      expect(own.bytes.toString()).toBe('notes of maria');
      expect((await getFile(upload.url, serverToken)).status).toBe(200);
      for (const other of [noah, olga]) {
        const refused = await getFile(upload.url, other.token);
        expect(refused.status).toBe(404);
        expect(json(refused).code).toBe(16);
      }
      // A file that does not exist reads the same as one that is not yours.
      const missing = await getFile('/chat/files/AAAAAAAAAAAAAAAA/x.txt', noah.token);
      expect(missing.status).toBe(404);
      expect(json(missing).code).toBe(16);
    });

    it('serves an attached file to the readers of its message, and 404 to everyone else', async () => {
      const upload = await textFile('maria');
      const sent = await sendWith(maria, [upload]);
      expect(sent.status).toBe(200);
      expect(await uploadRow(upload.id)).toMatchObject({ cid: CID, state: 'active' });
      await server.db.query(`UPDATE chat_members SET banned = true WHERE cid = $1 AND user_id = 'ben'`, [
        CID,
      ]);
      for (const reader of [maria, noah, rita])
        expect((await getFile(upload.url, reader.token)).status).toBe(200);
      for (const refused of [ben, pia, olga]) {
        const r = await getFile(upload.url, refused.token);
        expect(r.status, refused.id).toBe(404);
        expect(json(r).code).toBe(16);
      }
      // Anonymous connections are refused by the gate before any file is looked up (the same answer for every id).
      expect((await getFile(upload.url, undefined)).status).toBe(403);
      // Rita could read it; once removed she cannot.
      await server.app.chat.server.removeMembers(CID, ['rita']);
      expect((await getFile(upload.url, rita.token)).status).toBe(404);
      expect((await getFile(upload.url, noah.token)).status).toBe(200);
    });

    it('takes the token from the authorization query parameter for files only, and never logs it', async () => {
      const upload = await textFile('maria', 'query.txt');
      const r = await getFile(upload.url, maria.token, { viaQuery: true });
      expect(r.status).toBe(200);
      // Other routes take the token from the header only.
      const hi = await fetch(
        new URL(`/chat/hi?api_key=${server.config.chatApiKey}&authorization=${maria.token}`, server.url),
      );
      expect(hi.status).toBe(401);
      const log = server.logText();
      expect(log).toContain(`/chat/files/${upload.id}/query.txt`);
      expect(log).not.toContain(maria.token);
      expect(log).not.toMatch(/authorization=/);
    });
  });

  describe('file answers', () => {
    const cases: Array<{ name: string; mime: string; type: string; disposition: 'inline' | 'attachment' }> = [
      { name: 'photo.png', mime: 'image/png', type: 'image/png', disposition: 'inline' },
      { name: 'voice.webm', mime: 'audio/webm', type: 'audio/webm', disposition: 'inline' },
      { name: 'clip.mp4', mime: 'video/mp4', type: 'video/mp4', disposition: 'inline' },
      {
        name: 'logo.svg',
        mime: 'image/svg+xml',
        type: 'application/octet-stream',
        disposition: 'attachment',
      },
      { name: 'page.html', mime: 'text/html', type: 'application/octet-stream', disposition: 'attachment' },
      {
        name: 'feed.xml',
        mime: 'application/xml',
        type: 'application/octet-stream',
        disposition: 'attachment',
      },
      { name: 'letter.pdf', mime: 'application/pdf', type: 'application/pdf', disposition: 'attachment' },
      { name: 'notes.txt', mime: 'text/plain', type: 'text/plain; charset=utf-8', disposition: 'attachment' },
      {
        name: 'blob.bin',
        mime: 'application/x-unknown',
        type: 'application/x-unknown',
        disposition: 'attachment',
      },
    ];

    it.each(cases)('$name: $type, $disposition, with the sandboxing headers', async (c) => {
      const upload = await createTestUpload(server, {
        owner: 'maria',
        bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        name: c.name,
        mimeType: c.mime,
        kind: 'file',
      });
      const r = await getFile(upload.url, maria.token);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe(c.type);
      expect(r.headers.get('content-disposition')).toBe(
        `${c.disposition}; filename="${c.name}"; filename*=UTF-8''${c.name}`,
      );
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('content-security-policy')).toBe(
        "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox",
      );
      expect(r.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(r.headers.get('cache-control')).toBe('private, max-age=86400');
      expect(r.headers.get('content-encoding')).toBeNull();
    });

    it('names downloads exactly (RFC 6266 filename*), with an ASCII fallback', async () => {
      const upload = await textFile('maria', 'Søknad "nr 2"; 100%.txt');
      const r = await getFile(upload.url, maria.token);
      expect(r.headers.get('content-disposition')).toBe(
        `attachment; filename="S_knad _nr 2__ 100_.txt"; filename*=UTF-8''S%C3%B8knad%20%22nr%202%22%3B%20100%25.txt`,
      );
    });

    it('never compresses a file (ranges address the stored bytes)', async () => {
      const upload = await createTestUpload(server, {
        owner: 'maria',
        bytes: Buffer.from('compressible text '.repeat(1000)),
        name: 'long.txt',
        mimeType: 'text/plain',
      });
      const r = await getFile(upload.url, maria.token, { headers: { 'accept-encoding': 'gzip, br' } });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-encoding')).toBeNull();
      expect(r.headers.get('content-length')).toBe('18000');
    });

    it('answers byte ranges for seeking (206, 416)', async () => {
      const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
      const upload = await createTestUpload(server, {
        owner: 'maria',
        bytes,
        name: 'a.mp3',
        mimeType: 'audio/mpeg',
      });
      const whole = await getFile(upload.url, maria.token);
      expect(whole.headers.get('accept-ranges')).toBe('bytes');
      expect(whole.headers.get('content-length')).toBe('1000');
      const part = await getFile(upload.url, maria.token, { headers: { range: 'bytes=100-199' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe('bytes 100-199/1000');
      expect(part.bytes.equals(bytes.subarray(100, 200))).toBe(true);
      const tail = await getFile(upload.url, maria.token, { headers: { range: 'bytes=-10' } });
      expect(tail.status).toBe(206);
      expect(tail.bytes.equals(bytes.subarray(990))).toBe(true);
      const open = await getFile(upload.url, maria.token, { headers: { range: 'bytes=995-' } });
      expect(open.headers.get('content-range')).toBe('bytes 995-999/1000');
      const past = await getFile(upload.url, maria.token, { headers: { range: 'bytes=5000-' } });
      expect(past.status).toBe(416);
      expect(past.headers.get('content-range')).toBe('bytes */1000');
      // A range is no way around the access rule.
      expect((await getFile(upload.url, olga.token, { headers: { range: 'bytes=0-9' } })).status).toBe(404);
    });

    it('answers 304 to a matching If-None-Match', async () => {
      const upload = await textFile('maria');
      const first = await getFile(upload.url, maria.token);
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^".+"$/);
      const again = await getFile(upload.url, maria.token, { headers: { 'if-none-match': etag ?? '' } });
      expect(again.status).toBe(304);
      expect(again.bytes.length).toBe(0);
      expect(
        (await getFile(upload.url, olga.token, { headers: { 'if-none-match': etag ?? '' } })).status,
      ).toBe(404);
      // HEAD answers the headers alone.
      const url = new URL(upload.url, server.url);
      url.searchParams.set('api_key', server.config.chatApiKey);
      const head = await fetch(url, {
        method: 'HEAD',
        headers: { authorization: maria.token, 'auth-type': 'jwt' },
      });
      expect(head.status).toBe(200);
      expect(head.headers.get('etag')).toBe(etag);
      expect(head.headers.get('content-length')).toBe(String(first.bytes.length));
      expect((await head.arrayBuffer()).byteLength).toBe(0);
    });
  });

  describe('resized images', () => {
    let photo: TestUpload;
    let original: Buffer;
    let thumb: Buffer;

    beforeAll(async () => {
      const image = sharp({ create: { width: 1200, height: 900, channels: 3, background: '#2a6' } });
      original = await image.clone().jpeg().toBuffer();
      thumb = await image.clone().resize(512, 512, { fit: 'inside' }).webp().toBuffer();
      photo = await createTestUpload(server, {
        owner: 'maria',
        bytes: original,
        thumb,
        name: 'photo.jpg',
        mimeType: 'image/jpeg',
        width: 1200,
        height: 900,
      });
    });

    const widthOf = async (bytes: Buffer) => (await sharp(bytes).metadata()).width;

    it('snaps a request to the next width bucket and renders it once, as WebP', async () => {
      const r = await getFile(photo.url, maria.token, { query: { w: '700' } });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/webp');
      expect(await widthOf(r.bytes)).toBe(768);
      const stored = await storageOf(server).stat(`uploads/${photo.id}/w768`);
      expect(stored?.size).toBe(r.bytes.length);
      // Any request in the same bucket gets the same variant (a box fitted inside: 701 wide, or 600 high = 800 wide).
      const queries: Array<Record<string, string>> = [{ w: '701' }, { w: '760', h: '10000' }, { h: '570' }];
      for (const query of queries) {
        const same = await getFile(photo.url, maria.token, { query });
        expect(same.headers.get('etag'), JSON.stringify(query)).toBe(r.headers.get('etag'));
        expect(same.bytes.equals(r.bytes)).toBe(true);
      }
    });

    it('serves the stored variant without rendering again', async () => {
      await getFile(photo.url, maria.token, { query: { w: '1000' } });
      const key = `uploads/${photo.id}/w1024`;
      const storage = storageOf(server);
      const before = await storage.stat(key);
      expect(before).toBeDefined();
      // Replace the variant's bytes: a second request must answer them (from storage), not a fresh render.
      const marker = await sharp({ create: { width: 3, height: 2, channels: 3, background: '#000' } })
        .webp()
        .toBuffer();
      await storage.put(key, marker);
      const again = await getFile(photo.url, maria.token, { query: { w: '1000' } });
      expect(again.bytes.equals(marker)).toBe(true);
    });

    it('never upscales: a bucket as wide as the original serves the original', async () => {
      const r = await getFile(photo.url, maria.token, { query: { w: '4000', h: '4000' } });
      expect(r.headers.get('content-type')).toBe('image/jpeg');
      expect(r.bytes.equals(original)).toBe(true);
      const bucket = await getFile(photo.url, maria.token, { query: { w: '1100' } });
      expect(bucket.bytes.equals(original)).toBe(true);
    });

    it('serves the thumbnail for small sizes, and at /thumb', async () => {
      for (const w of ['64', '200', '500']) {
        const r = await getFile(photo.url, maria.token, { query: { w } });
        expect(r.headers.get('content-type'), w).toBe('image/webp');
        expect(r.bytes.equals(thumb), w).toBe(true);
      }
      const t = await getFile(photo.thumbUrl, maria.token);
      expect(t.status).toBe(200);
      expect(t.headers.get('content-disposition')).toMatch(/^inline;/);
      expect(t.bytes.equals(thumb)).toBe(true);
      expect((await getFile(photo.thumbUrl, noah.token)).status).toBe(404);
      const noThumb = await textFile('maria');
      expect((await getFile(noThumb.thumbUrl, maria.token)).status).toBe(404);
    });

    it('serves the original when an image cannot be resized', async () => {
      const broken = await createTestUpload(server, {
        owner: 'maria',
        bytes: Buffer.from('not really a jpeg'),
        name: 'broken.jpg',
        mimeType: 'image/jpeg',
        width: 2000,
        height: 1000,
      });
      const r = await getFile(broken.url, maria.token, { query: { w: '600' } });
      expect(r.status).toBe(200);
      expect(r.bytes.toString()).toBe('not really a jpeg');
    });

    it('refuses a resize bound that is not a number (code 4)', async () => {
      const r = await getFile(photo.url, maria.token, { query: { w: 'wide' } });
      expect(r.status).toBe(400);
      expect(json(r)).toMatchObject({ code: 4, message: expect.stringContaining('w') });
    });
  });

  describe('attaching files to messages', () => {
    async function counts() {
      const { rows } = await server.db.query<{ messages: string; attached: string }>(
        `SELECT (SELECT count(*) FROM chat_messages) AS messages,
              (SELECT count(*) FROM chat_uploads WHERE message_id IS NOT NULL) AS attached`,
      );
      return rows[0];
    }

    it('accepts a message with attachments and no text', async () => {
      const upload = await textFile('maria');
      const sent = await sendWith(maria, [upload]);
      expect(sent.status).toBe(200);
      const message = sent.body.message as { id: string; text: string; attachments: unknown[] };
      expect(message.text).toBe('');
      expect(message.attachments).toEqual([{ type: 'file', asset_url: upload.url }]);
      expect(await uploadRow(upload.id)).toMatchObject({ message_id: message.id, cid: CID });
    });

    it('refuses files that are not the sender’s to attach (code 4 naming the attachment), writing nothing', async () => {
      const noahs = await textFile('noah');
      const otherChannel = await textFile('maria', 'other.txt', { cid: OTHER_CID });
      const elsewhere = await textFile('maria', 'elsewhere.txt');
      expect((await sendWith(maria, [elsewhere], { text: 'first' })).status).toBe(200);
      const mine = await textFile('maria', 'mine.txt');
      const cases: Array<[TestUpload[], string]> = [
        [[mine, noahs], 'attachments[1].asset_url: unknown file'],
        [[otherChannel], 'attachments[0].asset_url: the file was uploaded to another channel'],
        [[mine, elsewhere], 'attachments[1].asset_url: the file is attached to another message'],
        [
          [{ id: 'AAAAAAAAAAAAAAAA', url: '/chat/files/AAAAAAAAAAAAAAAA/x', thumbUrl: '' }],
          'attachments[0].asset_url: unknown file',
        ],
      ];
      for (const [uploads, message] of cases) {
        const before = await counts();
        const r = await sendWith(maria, uploads, { text: 'try' });
        expect(r.status, message).toBe(400);
        expect(r.body).toMatchObject({ code: 4, message });
        expect(await counts()).toEqual(before);
        expect((await uploadRow(mine.id))?.message_id).toBeNull();
      }
      // An upload of this channel is the sender's to attach here; the server may attach anyone's.
      const channelUpload = await textFile('maria', 'here.txt', { cid: CID });
      expect((await sendWith(maria, [channelUpload])).status).toBe(200);
      const viaServer = await server.app.chat.server.sendMessage(CID, 'maria', {
        attachments: [{ type: 'file', asset_url: noahs.url }],
      });
      expect(await uploadRow(noahs.id)).toMatchObject({ message_id: viaServer.id });
    });

    it('checks attachment objects against the protocol and caps them at 30', async () => {
      const bad = await maria.call('POST', `${CHANNEL}/message`, {
        message: { text: 'x', attachments: [{ type: 'file' }, { type: 'image', file_size: 'big' }] },
      });
      expect(bad).toMatchObject({ status: 400, body: { code: 4 } });
      expect((bad.body as { message: string }).message).toContain('attachments');
      const custom = await maria.call('POST', `${CHANNEL}/message`, {
        message: {
          attachments: [{ type: 'custom', anything: { nested: [1, 2] } }, { type: 'location-pin' }],
        },
      });
      expect(custom.status).toBe(200);
      const tooMany = await maria.call('POST', `${CHANNEL}/message`, {
        message: { attachments: Array.from({ length: 31 }, () => ({ type: 'custom' })) },
      });
      expect(tooMany).toMatchObject({ status: 400, body: { code: 4 } });
      const edit = await maria.call('PUT', `/messages/${(custom.body.message as { id: string }).id}`, {
        set: { attachments: [{ type: 'image', original_width: -1 }] },
      });
      expect(edit).toMatchObject({
        status: 400,
        body: { code: 4, message: expect.stringContaining('attachments[0]') },
      });
    });

    it('attaches files added by an edit, and stops serving those an edit drops', async () => {
      const sent = await maria.call('POST', `${CHANNEL}/message`, { message: { text: 'edit me' } });
      const id = (sent.body.message as { id: string }).id;
      const upload = await textFile('maria', 'edited.txt');
      const noahs = await textFile('noah', 'noahs.txt');
      const refused = await maria.call('PUT', `/messages/${id}`, {
        set: { attachments: [{ type: 'file', asset_url: noahs.url }] },
      });
      expect(refused).toMatchObject({
        status: 400,
        body: { code: 4, message: 'attachments[0].asset_url: unknown file' },
      });
      const edited = await maria.call('PUT', `/messages/${id}`, {
        set: { attachments: [{ type: 'file', asset_url: upload.url }] },
      });
      expect(edited.status).toBe(200);
      expect((await getFile(upload.url, noah.token)).status).toBe(200);
      // The same list again is fine (the file is on this message already).
      const again = await maria.call('POST', `/messages/${id}`, {
        message: { text: 'edit me', attachments: [{ type: 'file', asset_url: upload.url }] },
      });
      expect(again.status).toBe(200);
      expect((await maria.call('PUT', `/messages/${id}`, { unset: ['attachments'] })).status).toBe(200);
      expect((await getFile(upload.url, noah.token)).status).toBe(404);
    });
  });

  describe('files live and die with their message', () => {
    async function sentFile(name: string) {
      const upload = await textFile('maria', name);
      const sent = await sendWith(maria, [upload]);
      return { upload, id: (sent.body.message as { id: string }).id };
    }

    it('a hard delete removes the rows and the stored bytes', async () => {
      const { upload, id } = await sentFile('hard.txt');
      const storage = storageOf(server);
      expect(await storage.stat(`uploads/${upload.id}/original`)).toBeDefined();
      const r = await maria.call('DELETE', `/messages/${id}`, undefined, { hard: 'true' });
      expect(r.status).toBe(200);
      expect(await uploadRow(upload.id)).toBeUndefined();
      expect(await storage.stat(`uploads/${upload.id}/original`)).toBeUndefined();
      expect((await getFile(upload.url, maria.token)).status).toBe(404);
    });

    it('a soft delete hides the files from everyone; an undelete shows them again', async () => {
      const { upload, id } = await sentFile('soft.txt');
      expect((await maria.call('DELETE', `/messages/${id}`)).status).toBe(200);
      expect(await uploadRow(upload.id)).toMatchObject({ state: 'hidden' });
      for (const who of [maria, noah]) expect((await getFile(upload.url, who.token)).status).toBe(404);
      expect((await getFile(upload.url, serverToken)).status).toBe(404);
      expect(await storageOf(server).stat(`uploads/${upload.id}/original`)).toBeDefined();
      const undone = await chatCall(server, 'POST', `/messages/${id}/undelete`, {
        token: serverToken,
        body: {},
      });
      expect(undone.status).toBe(200);
      expect((await getFile(upload.url, noah.token)).status).toBe(200);
    });

    it('a delete for me changes the file for nobody else', async () => {
      const { upload, id } = await sentFile('for-me.txt');
      expect(
        (await noah.call('DELETE', `/messages/${id}`, undefined, { delete_for_me: 'true' })).status,
      ).toBe(200);
      expect(await uploadRow(upload.id)).toMatchObject({ state: 'active' });
      expect((await getFile(upload.url, maria.token)).status).toBe(200);
      // Noah no longer sees the message's content (the read rule), so not its file either.
      expect((await getFile(upload.url, noah.token)).status).toBe(404);
    });

    it('truncating and deleting a channel stop serving its files', async () => {
      const api = server.app.chat.server;
      await api.getOrCreateChannel('messaging', 'files-trunc', { members: ['maria', 'noah'] }, 'maria');
      const upload = await textFile('maria', 'trunc.txt');
      expect((await sendWith(maria, [upload], {}, '/channels/messaging/files-trunc')).status).toBe(200);
      expect((await getFile(upload.url, noah.token)).status).toBe(200);
      expect((await maria.call('POST', '/channels/messaging/files-trunc/truncate', {})).status).toBe(200);
      expect((await getFile(upload.url, noah.token)).status).toBe(404);
      expect(await uploadRow(upload.id)).toMatchObject({ state: 'hidden' });

      await api.getOrCreateChannel('messaging', 'files-gone', { members: ['maria', 'noah'] }, 'maria');
      const gone = await textFile('maria', 'gone.txt');
      expect((await sendWith(maria, [gone], {}, '/channels/messaging/files-gone')).status).toBe(200);
      expect((await maria.call('DELETE', '/channels/messaging/files-gone')).status).toBe(200);
      expect((await getFile(gone.url, noah.token)).status).toBe(404);
      expect(await uploadRow(gone.id)).toMatchObject({ state: 'hidden' });
    });

    it('a hard channel delete removes its files, rows and bytes', async () => {
      await server.app.chat.server.getOrCreateChannel(
        'messaging',
        'files-hard',
        { members: ['maria'] },
        'maria',
      );
      const upload = await textFile('maria', 'hard-channel.txt');
      expect((await sendWith(maria, [upload], {}, '/channels/messaging/files-hard')).status).toBe(200);
      const r = await chatCall(server, 'POST', '/channels/delete', {
        token: serverToken,
        body: { cids: ['messaging:files-hard'], hard_delete: true },
      });
      expect(r.status).toBe(200);
      expect(await uploadRow(upload.id)).toBeUndefined();
      expect(await storageOf(server).stat(`uploads/${upload.id}/original`)).toBeUndefined();
    });

    it('expires uploads never attached (rows and bytes), and keeps the others', async () => {
      const day = 24 * 60 * 60 * 1000;
      const old = await createTestUpload(server, {
        owner: 'maria',
        bytes: Buffer.from('old'),
        name: 'old.txt',
        mimeType: 'text/plain',
        createdAt: new Date(Date.now() - day - 60_000),
      });
      const fresh = await textFile('maria', 'fresh.txt');
      const { upload: attached } = await sentFile('kept.txt');
      await server.db.query('UPDATE chat_uploads SET created_at = $2 WHERE id = $1', [
        attached.id,
        new Date(Date.now() - 2 * day),
      ]);
      const jobs = server.app.chat.jobs;
      jobs.clock = () => new Date(Date.now() + 2 * 60 * 60 * 1000);
      expect(await jobs.tick()).toContain('expire-uploads');
      const storage = storageOf(server);
      expect(await uploadRow(old.id)).toBeUndefined();
      expect(await storage.stat(`uploads/${old.id}/original`)).toBeUndefined();
      expect(await uploadRow(fresh.id)).toBeDefined();
      expect(await uploadRow(attached.id)).toBeDefined();
      // A shorter age (the job's parameter) takes the fresh one too.
      expect(
        await expireUploads({ db: server.db, storage, log: createLogger('silent') }, new Date(), 0),
      ).toBeGreaterThan(0);
      expect(await uploadRow(fresh.id)).toBeUndefined();
      expect(await uploadRow(attached.id)).toBeDefined();
    });
  });
});
