import fs from 'node:fs';
import path from 'node:path';
import { resolveObjectURL } from 'node:buffer';
import { chatFileIdOf, type Attachment, type UploadResponse } from '@caseroom/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatApiError, type ChatChannel, type ChatClient, type LocalMessage } from '../src/index.js';
import { connectTo, serverHelper, until, type TestServer } from './support.js';

/**
 * The SDK's upload side (issue 14; chat-spec §3, §4, §5, §7) against the real server on PostgreSQL: `sendFile` /
 * `sendImage` from Node with progress and abort, the composer's attachment manager end to end to another member's
 * WebSocket (files, images, an attachment-only message, a voice recording made with ffmpeg), the server's
 * refusals mapped to `file-size` / `file-extension` with the spec's notices, downloads through `client.files`
 * with the token, an outsider's and a removed member's 404s, and `remove()` deleting an unsent upload.
 */

interface ServerApi {
  getOrCreateChannel(type: string, id: string, data: { members: string[] }, by: string): Promise<unknown>;
  removeMembers(cid: string, userIds: string[]): Promise<void>;
}
interface FullServer extends TestServer {
  db: { query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }> };
  config: TestServer['config'] & { dataDir: string };
}
interface MediaHelpers {
  png(width: number, height: number): Promise<Buffer>;
  voiceWebm(dir: string): Buffer;
  tempMediaDir(): string;
}
interface AuthHelpers {
  signChatToken(config: unknown, claims: { server: true }): Promise<string>;
}

// Server modules are loaded at run time (the server package references the SDK's project, not the reverse).
const mediaPath = '../../server/test/helpers/media.js';
const authPath = '../../server/src/chat/auth.js';

/** A minimal PDF (sniffed as application/pdf). */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
);

/** A Buffer as a Blob part. */
const bytes = (buffer: Buffer) => new Uint8Array(buffer);
/** A received message's attachments (the SDK keeps them as plain records). */
const attachmentsOf = (message: LocalMessage) => (message.attachments ?? []) as Attachment[];

describe('uploads through the SDK, real server on PostgreSQL', () => {
  let server: FullServer;
  let media: MediaHelpers;
  let serverToken: string;
  let mediaDir: string;
  const clients: ChatClient[] = [];
  const cid = 'messaging:files';

  beforeAll(async () => {
    server = (await (await serverHelper()).startTestServer({ productChatRules: false })) as FullServer;
    await server.app.chat.server.upsertUsers([
      { id: 'maria' },
      { id: 'noah' },
      { id: 'rita' },
      { id: 'eve' },
    ]);
    const api = server.app.chat.server as unknown as ServerApi;
    await api.getOrCreateChannel('messaging', 'files', { members: ['maria', 'noah', 'rita'] }, 'maria');
    media = (await import(/* @vite-ignore */ mediaPath)) as MediaHelpers;
    mediaDir = media.tempMediaDir();
    const auth = (await import(/* @vite-ignore */ authPath)) as AuthHelpers;
    serverToken = await auth.signChatToken(server.config, { server: true });
  });
  afterAll(async () => {
    for (const client of clients) await client.disconnectUser();
    await server?.close();
  });

  async function connect(id: string) {
    const client = await connectTo(server, id);
    clients.push(client);
    return client;
  }
  async function watched(client: ChatClient): Promise<ChatChannel> {
    const channel = client.channel('messaging', 'files');
    await channel.watch();
    return channel;
  }
  const uploadRows = async () =>
    Number((await server.db.query<{ n: string }>('SELECT count(*) AS n FROM chat_uploads')).rows[0]?.n);
  const storedFiles = () => {
    const root = path.join(server.config.dataDir, 'uploads');
    return fs.existsSync(root) ? fs.readdirSync(root).length : 0;
  };
  const tempFiles = () => {
    const dir = path.join(server.config.dataDir, 'tmp', 'uploads');
    return fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
  };
  async function patchApp(body: Record<string, unknown>) {
    const url = new URL('/chat/app', server.url);
    url.searchParams.set('api_key', server.config.chatApiKey);
    const res = await fetch(url, {
      method: 'PATCH',
      headers: { authorization: serverToken, 'auth-type': 'jwt', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  }
  /**
   * The status of a plain GET (a media element's request), its body read: an unread body holds the connection open
   * and the server's close would wait for it.
   */
  async function getStatus(url: string): Promise<number> {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.status;
  }
  /** The message `member` received over the WebSocket with this id. */
  async function received(channel: ChatChannel, id: string): Promise<LocalMessage> {
    let found: LocalMessage | undefined;
    await until(() => {
      found = channel.findMessage(id);
      return found !== undefined;
    }, `message ${id} over the WebSocket`);
    return found as LocalMessage;
  }
  async function statusOf(promise: Promise<unknown>): Promise<number | undefined> {
    try {
      await promise;
      return 200;
    } catch (error) {
      if (error instanceof ChatApiError) return error.status;
      throw error;
    }
  }
  const bytesOfObjectUrl = async (objectUrl: string) => {
    const blob = resolveObjectURL(objectUrl);
    if (!blob) throw new Error(`no blob behind ${objectUrl}`);
    return Buffer.from(await blob.arrayBuffer());
  };

  it('sendFile and sendImage from Node answer UploadResponse, with progress', async () => {
    const maria = await connect('maria');
    const channel = await watched(maria);

    const progress: { loaded: number; total: number }[] = [];
    const file = await channel.sendFile(PDF, 'letter.pdf', 'application/pdf', {
      onProgress: (p) => progress.push(p),
    });
    const id = chatFileIdOf(file.file);
    expect(file).toMatchObject({ file: `/chat/files/${id}/letter.pdf`, mime_type: 'application/pdf' });
    expect(file.file_size).toBe(PDF.length);
    expect(progress[0]).toEqual({ loaded: 0, total: PDF.length });
    expect(progress.at(-1)).toEqual({ loaded: PDF.length, total: PDF.length });

    const image = await media.png(800, 600);
    const imageProgress: number[] = [];
    const answer: UploadResponse = await channel.sendImage(
      new Blob([bytes(image)], { type: 'image/png' }),
      'plan.png',
      undefined,
      { onProgress: (p) => imageProgress.push(p.loaded) },
    );
    const imageId = chatFileIdOf(answer.file);
    expect(answer).toMatchObject({
      file: `/chat/files/${imageId}/plan.png`,
      thumb_url: `/chat/files/${imageId}/thumb`,
      original_width: 800,
      original_height: 600,
      mime_type: 'image/png',
    });
    expect(imageProgress.at(-1)).toBe(image.length);
    // A body read in several chunks reports bytes in between.
    const big = new Blob([new Uint8Array(3_000_000)], { type: 'application/octet-stream' });
    const bigProgress: number[] = [];
    await channel.sendFile(big, 'zeros.bin', undefined, { onProgress: (p) => bigProgress.push(p.loaded) });
    expect(bigProgress.some((loaded) => loaded > 0 && loaded < big.size)).toBe(true);
    expect(bigProgress.at(-1)).toBe(big.size);
  });

  it('an aborted upload rejects and leaves nothing stored', async () => {
    const maria = clients[0] as ChatClient;
    const channel = maria.channel('messaging', 'files');
    const rows = await uploadRows();
    const stored = storedFiles();
    const controller = new AbortController();
    const big = new Blob([new Uint8Array(40_000_000)]);
    const upload = channel.sendFile(big, 'huge.bin', 'application/octet-stream', {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.loaded > 1_000_000) controller.abort();
      },
    });
    await expect(upload).rejects.toMatchObject({ network: true, message: expect.stringMatching(/aborted/) });
    // The server notices the dropped connection and removes its temporary file.
    await until(() => tempFiles() === 0, 'the temporary upload removed');
    expect(await uploadRows()).toBe(rows);
    expect(storedFiles()).toBe(stored);
  });

  let sent: LocalMessage;
  let voice: Attachment;

  it('the attachment manager: files and an image reach the other member with their fields', async () => {
    const maria = clients[0] as ChatClient;
    const noah = await connect('noah');
    const mine = maria.channel('messaging', 'files');
    const theirs = await watched(noah);
    const image = await media.png(1200, 900);
    const done = await mine.composer.attachments.addFiles([
      new File([bytes(image)], 'photo.png', { type: 'image/png' }),
      new File([bytes(PDF)], 'letter.pdf', { type: 'application/pdf' }),
    ]);
    expect(done.map((a) => a.localMetadata.uploadState)).toEqual(['finished', 'finished']);
    mine.composer.setText('the documents');
    const message = await mine.composer.send();
    expect(message?.status).toBe('received');
    const got = await received(theirs, (message as LocalMessage).id);
    expect(got.text).toBe('the documents');
    const [photo, pdf] = attachmentsOf(got);
    const photoId = chatFileIdOf(photo?.image_url ?? '');
    expect(photo).toMatchObject({
      type: 'image',
      image_url: `/chat/files/${photoId}/photo.png`,
      thumb_url: `/chat/files/${photoId}/thumb`,
      title: 'photo.png',
      file_size: image.length,
      mime_type: 'image/png',
      original_width: 1200,
      original_height: 900,
    });
    const pdfId = chatFileIdOf(pdf?.asset_url ?? '');
    expect(pdf).toMatchObject({
      type: 'file',
      asset_url: `/chat/files/${pdfId}/letter.pdf`,
      title: 'letter.pdf',
      file_size: PDF.length,
      mime_type: 'application/pdf',
    });
    expect(mine.composer.attachments.state.getSnapshot().attachments).toEqual([]);
    sent = got;
  });

  it('an attachment-only message and a voice recording (ffmpeg webm) with duration and waveform', async () => {
    const maria = clients[0] as ChatClient;
    const noah = clients[1] as ChatClient;
    const mine = maria.channel('messaging', 'files');
    const theirs = noah.channel('messaging', 'files');

    await mine.composer.attachments.addFiles([
      new File([bytes(PDF)], 'form.pdf', { type: 'application/pdf' }),
    ]);
    const only = await mine.composer.send();
    expect(only?.status).toBe('received');
    const got = await received(theirs, (only as LocalMessage).id);
    expect(got.text ?? '').toBe('');
    expect(got.attachments).toHaveLength(1);
    expect(attachmentsOf(got)[0]).toMatchObject({ type: 'file', title: 'form.pdf' });

    const webm = media.voiceWebm(mediaDir);
    const waveform = Array.from({ length: 100 }, (_, i) => Math.round(Math.abs(Math.sin(i / 7)) * 100) / 100);
    const recording = await mine.composer.attachments.addVoiceRecording(
      new Blob([bytes(webm)], { type: 'audio/webm' }),
      { duration: 3, waveform_data: waveform },
    );
    expect(recording.localMetadata.uploadState).toBe('finished');
    const spoken = await mine.composer.send();
    const heard = await received(theirs, (spoken as LocalMessage).id);
    const attachment = attachmentsOf(heard)[0];
    const id = chatFileIdOf(attachment?.asset_url ?? '');
    expect(attachment).toMatchObject({
      type: 'voiceRecording',
      asset_url: `/chat/files/${id}/file.webm`,
      title: 'file.webm',
      file_size: webm.length,
      mime_type: 'audio/webm',
      waveform_data: waveform,
    });
    // The server measured the recording (ffmpeg): about three seconds.
    expect(attachment?.duration).toBeGreaterThan(2.5);
    expect(attachment?.duration).toBeLessThan(3.5);
    voice = attachment as Attachment;
  });

  it('client.files downloads with the token; mediaUrl works on the real route', async () => {
    const noah = clients[1] as ChatClient;
    const [photo, pdf] = attachmentsOf(sent);
    const original = await noah.files.fetchFile(photo?.image_url ?? '');
    expect(original.size).toBe(photo?.file_size);
    const objectUrl = await noah.files.fetchBlob(photo?.image_url ?? '');
    expect((await bytesOfObjectUrl(objectUrl)).length).toBe(photo?.file_size);
    const thumb = await bytesOfObjectUrl(await noah.files.fetchBlob(photo?.thumb_url ?? '', { w: 200 }));
    expect(thumb.subarray(8, 12).toString()).toBe('WEBP');
    // Cached: the same image is not downloaded twice.
    const before = noah.files.stats.fetches;
    expect(await noah.files.fetchBlob(photo?.image_url ?? '')).toBe(objectUrl);
    expect(noah.files.stats.fetches).toBe(before);
    const pdfBlob = await noah.files.fetchFile(pdf?.asset_url ?? '');
    expect(Buffer.from(await pdfBlob.arrayBuffer())).toEqual(PDF);

    // A media element's URL: no header, the token in the query.
    const voiceUrl = noah.files.mediaUrl(voice.asset_url ?? '');
    const streamed = await fetch(voiceUrl);
    expect(streamed.status).toBe(200);
    expect(Number(streamed.headers.get('content-length'))).toBe(voice.file_size);
    expect((await streamed.arrayBuffer()).byteLength).toBe(voice.file_size);
    // Every chat route wants the api key, file routes too: mediaUrl carries it (code 2 without it).
    const noKey = new URL(voiceUrl);
    noKey.searchParams.delete('api_key');
    const refused = await fetch(noKey);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 2 });
    const ranged = await fetch(voiceUrl, { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);
  });

  it('the outsider gets 404 for every URL; a removed member loses access', async () => {
    const eve = await connect('eve');
    const rita = await connect('rita');
    const [photo, pdf] = attachmentsOf(sent);
    const urls = [photo?.image_url, photo?.thumb_url, pdf?.asset_url, voice.asset_url].map((u) => u ?? '');
    for (const url of urls) {
      expect(await statusOf(eve.files.fetchFile(url))).toBe(404);
      expect(await statusOf(eve.files.fetchBlob(url))).toBe(404);
      expect(await getStatus(eve.files.mediaUrl(url))).toBe(404);
      expect(await statusOf(rita.files.fetchFile(url))).toBe(200);
      expect(await getStatus(rita.files.mediaUrl(url))).toBe(200);
    }
    await (server.app.chat.server as unknown as ServerApi).removeMembers(cid, ['rita']);
    for (const url of urls) {
      expect(await statusOf(rita.files.fetchFile(url))).toBe(404);
      expect(await getStatus(rita.files.mediaUrl(url))).toBe(404);
    }
  });

  it('remove() of a finished, unsent attachment deletes the upload on the server', async () => {
    const maria = clients[0] as ChatClient;
    const attachments = maria.channel('messaging', 'files').composer.attachments;
    const rows = await uploadRows();
    const [done] = await attachments.addFiles([
      new File([bytes(PDF)], 'draft.pdf', { type: 'application/pdf' }),
    ]);
    expect(done?.localMetadata.uploadState).toBe('finished');
    const url = done?.asset_url ?? '';
    expect(await statusOf(maria.files.fetchFile(url))).toBe(200);
    expect(await uploadRows()).toBe(rows + 1);
    await attachments.remove(done?.localMetadata.id ?? '');
    expect(attachments.state.getSnapshot().attachments).toEqual([]);
    expect(await statusOf(maria.files.fetchFile(url))).toBe(404);
    expect(await uploadRows()).toBe(rows);
  });

  describe('refusals (chat-spec §5)', () => {
    const limitText = 'Error uploading "big.pdf", maximum file size 0.002MB exceeded';

    it('the client-side check blocks when /app is readable', async () => {
      await patchApp({ file_upload_config: { size_limit: 2000, blocked_file_extensions: ['.zip'] } });
      // A new client reads the settings after the change.
      const fresh = await connect('maria');
      const attachments = (await watched(fresh)).composer.attachments;
      const rows = await uploadRows();
      const [big, zip] = await attachments.addFiles([
        new File([new Uint8Array(5000)], 'big.pdf', { type: 'application/pdf' }),
        new File([bytes(PDF)], 'archive.zip', { type: 'application/zip' }),
      ]);
      expect(big?.localMetadata).toMatchObject({
        uploadState: 'blocked',
        errorReason: 'file-size',
        uploadPermissionCheck: { uploadBlocked: true, reason: 'size_limit' },
      });
      expect(zip?.localMetadata).toMatchObject({
        uploadState: 'blocked',
        errorReason: 'file-extension',
        uploadPermissionCheck: { uploadBlocked: true, reason: 'blocked_file_extensions' },
      });
      const notices = fresh.notifications.getSnapshot().map((n) => n.text);
      expect(notices).toContain(limitText);
      expect(notices).toContain('Error uploading "archive.zip", type .zip not supported');
      expect(await uploadRows()).toBe(rows);
    });

    it('bypassed: the server refuses a file over the limit streamed from Node with code 22 → file-size', async () => {
      // maria's first client read /app before the change: its check passes, the server refuses.
      const maria = clients[0] as ChatClient;
      const attachments = maria.channel('messaging', 'files').composer.attachments;
      const rows = await uploadRows();
      const [big] = await attachments.addFiles([
        new File([new Uint8Array(8_000_000)], 'big.pdf', { type: 'application/pdf' }),
      ]);
      expect(big?.localMetadata).toMatchObject({ uploadState: 'failed', errorReason: 'file-size' });
      expect(big?.localMetadata.errorExtraInfo).toMatch(/2000 bytes/);
      // The notice names the server's limit, not the stale settings' (which would say the default 100MB).
      expect(maria.notifications.getSnapshot().map((n) => n.text)).toContain(limitText);
      await attachments.remove(big?.localMetadata.id ?? '');
      // The refusal made the client read /app again: the next file over the limit is blocked before uploading.
      const [next] = await attachments.addFiles([
        new File([new Uint8Array(8_000_000)], 'big.pdf', { type: 'application/pdf' }),
      ]);
      expect(next?.localMetadata).toMatchObject({ uploadState: 'blocked', errorReason: 'file-size' });
      await attachments.remove(next?.localMetadata.id ?? '');

      // The same through sendFile: the answer, not a network error.
      const refused = maria
        .channel('messaging', 'files')
        .sendFile(new Blob([new Uint8Array(8_000_000)]), 'big.bin', 'application/octet-stream');
      await expect(refused).rejects.toMatchObject({ status: 413, code: 22 });
      expect(await uploadRows()).toBe(rows);
    });

    it('bypassed: a file whose declared type lies is refused with code 4 "file extension" → file-extension', async () => {
      // Name and declared type pass the client-side check; the server sniffs the content.
      const maria = clients[0] as ChatClient;
      const attachments = maria.channel('messaging', 'files').composer.attachments;
      // A zip archive named and typed as text: its name does not match its content.
      const zip = Buffer.from(
        '504b0304140000000000000000000000000000000000000000000000000000000000000000000000000000000000' +
          '504b0506000000000000000000000000000000000000',
        'hex',
      );
      const [liar] = await attachments.addFiles([
        new File([bytes(zip)], 'notes.txt', { type: 'text/plain' }),
      ]);
      expect(liar?.localMetadata).toMatchObject({ uploadState: 'failed', errorReason: 'file-extension' });
      expect(liar?.localMetadata.errorExtraInfo).toMatch(/file extension \.txt does not match/i);
      const notices = () => maria.notifications.getSnapshot().map((n) => n.text);
      expect(notices()).toContain('Error uploading "notes.txt", type .txt not supported');

      // Without an extension, typed as text: the content's extension is the blocked one, and the notice says so
      // (the name has none to show; the declared type would be the lie).
      const [unnamed] = await attachments.addFiles([new File([bytes(zip)], 'notes', { type: 'text/plain' })]);
      expect(unnamed?.localMetadata).toMatchObject({ uploadState: 'failed', errorReason: 'file-extension' });
      expect(unnamed?.localMetadata.errorExtraInfo).toBe('File extension .zip is not allowed');
      expect(notices()).toContain('Error uploading "notes", type .zip not supported');
    });
  });
});
