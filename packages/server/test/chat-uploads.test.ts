import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_UPLOAD_SIZE_LIMIT, chatFileIdOf, type UploadResponse } from '@caseroom/protocol';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signChatToken } from '../src/chat/auth.js';
import { sweepUploadTemp } from '../src/chat/uploads/receive.js';
import { openStorage, type FileStorage } from '../src/platform/storage/index.js';
import { chatCall, chatUser, type ChatUserClient } from './chat-support.js';
import {
  animatedGif,
  hasGpsIfd,
  jpegWithGps,
  png,
  tempMediaDir,
  testVideo,
  voiceMp4,
  voiceWav,
  voiceWebm,
} from './helpers/media.js';
import { startS3rver, type LocalS3 } from './helpers/s3rver.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { storedBytes, uploadAs } from './helpers/uploads.js';

/**
 * Uploads through real HTTP multipart (issue 14; chat-spec §3, §5, §7): every upload endpoint, its answer, the row,
 * the stored bytes and thumbnails; EXIF location stripped; video posters and durations and audio durations from
 * ffmpeg; the app's upload configuration enforced on the real content with the codes the SDK maps; capabilities,
 * anonymous and outsider refusals; deletion rules; the size limit. One PGlite case runs without ffmpeg.
 */

interface UploadRowView {
  id: string;
  owner_id: string;
  cid: string | null;
  kind: string;
  name: string;
  mime_type: string;
  size: string;
  storage_key: string;
  thumb_key: string | null;
  width: number | null;
  height: number | null;
  duration: number | null;
  message_id: string | null;
}

describe('chat uploads (PostgreSQL)', () => {
  let server: TestServer;
  let storage: FileStorage;
  let maria: ChatUserClient;
  let noah: ChatUserClient;
  let eve: ChatUserClient;
  let serverToken: string;
  let media: string;
  const cid = 'messaging:uploads-1';
  const channelPath = '/channels/messaging/uploads-1';

  const rowOf = async (answer: UploadResponse) => {
    const id = chatFileIdOf(answer.file);
    const { rows } = await server.db.query<UploadRowView>('SELECT * FROM chat_uploads WHERE id = $1', [id]);
    return rows[0];
  };
  const uploadCount = async () =>
    Number((await server.db.query<{ n: string }>('SELECT count(*) AS n FROM chat_uploads')).rows[0]?.n);
  const setConfig = (body: Record<string, unknown>) =>
    chatCall(server, 'PATCH', '/app', { token: serverToken, body });

  beforeAll(async () => {
    server = await startTestServer({ productChatRules: false });
    storage = openStorage(server.config);
    maria = await chatUser(server, 'maria');
    noah = await chatUser(server, 'noah');
    eve = await chatUser(server, 'eve');
    serverToken = await signChatToken(server.config, { server: true });
    await server.app.chat.server.getOrCreateChannel(
      'messaging',
      'uploads-1',
      { members: ['maria', 'noah'] },
      'maria',
    );
    media = tempMediaDir();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('stores an image: answer, row, clean original, WebP thumbnail of at most 512 px', async () => {
    const image = await png(1600, 900);
    const r = await uploadAs<UploadResponse>(
      server,
      { token: maria.token },
      `${channelPath}/image`,
      image,
      'plan.png',
    );
    expect(r.status).toBe(200);
    const id = chatFileIdOf(r.body.file);
    expect(id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(r.body).toEqual({
      file: `/chat/files/${id}/plan.png`,
      thumb_url: `/chat/files/${id}/thumb`,
      mime_type: 'image/png',
      file_size: expect.any(Number) as number,
      original_width: 1600,
      original_height: 900,
    });
    const row = await rowOf(r.body);
    expect(row).toMatchObject({
      owner_id: 'maria',
      cid,
      kind: 'image',
      name: 'plan.png',
      mime_type: 'image/png',
      storage_key: `uploads/${id}/original`,
      thumb_key: `uploads/${id}/thumb`,
      width: 1600,
      height: 900,
      message_id: null,
    });
    const stored = await storedBytes(storage, `uploads/${id}/original`);
    expect(stored?.length).toBe(r.body.file_size);
    expect(Number(row?.size)).toBe(stored?.length);
    const thumb = await sharp(await storedBytes(storage, `uploads/${id}/thumb`)).metadata();
    expect(thumb).toMatchObject({ format: 'webp', width: 512, height: 288 });
  });

  it('strips EXIF (GPS) from photos and applies their orientation', async () => {
    const photo = await jpegWithGps();
    const before = await sharp(photo).metadata();
    expect(hasGpsIfd(before.exif)).toBe(true);
    expect(before.orientation).toBe(6);
    const r = await uploadAs<UploadResponse>(
      server,
      { token: maria.token },
      '/uploads/image',
      photo,
      'IMG_0001.JPG',
    );
    expect(r.status).toBe(200);
    const id = chatFileIdOf(r.body.file);
    const stored = await storedBytes(storage, `uploads/${id}/original`);
    const after = await sharp(stored).metadata();
    expect(after.format).toBe('jpeg');
    expect(after.exif).toBeUndefined();
    expect(hasGpsIfd(stored)).toBe(false);
    expect(stored?.includes(Buffer.from('TestCam'))).toBe(false);
    expect(after.orientation).toBeUndefined();
    expect([after.width, after.height]).toEqual([200, 300]);
    expect(r.body).toMatchObject({ original_width: 200, original_height: 300, mime_type: 'image/jpeg' });
    expect(await rowOf(r.body)).toMatchObject({ cid: null, owner_id: 'maria', kind: 'image' });
  });

  it('keeps an animated GIF animated; a .jpg that is a PNG is stored as image/png', async () => {
    const gif = await uploadAs<UploadResponse>(
      server,
      { token: maria.token },
      '/uploads/image',
      await animatedGif(4),
      'wave.gif',
    );
    expect(gif.status).toBe(200);
    const stored = await storedBytes(storage, `uploads/${chatFileIdOf(gif.body.file)}/original`);
    expect(await sharp(stored).metadata()).toMatchObject({ format: 'gif', pages: 4 });
    expect(gif.body).toMatchObject({ original_width: 40, original_height: 40 });
    const renamed = await uploadAs<UploadResponse>(
      server,
      { token: maria.token },
      '/uploads/image',
      await png(10, 10),
      'x.jpg',
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body.mime_type).toBe('image/png');
  });

  it('stores any file through /file with its sniffed type, images through /file are cleaned too', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const r = await uploadAs<UploadResponse>(
      server,
      { token: noah.token },
      `${channelPath}/file`,
      pdf,
      'Vedtak 2026 (signert).pdf',
    );
    expect(r.status).toBe(200);
    const id = chatFileIdOf(r.body.file);
    expect(r.body).toEqual({
      file: `/chat/files/${id}/${encodeURIComponent('Vedtak 2026 (signert).pdf')}`,
      mime_type: 'application/pdf',
      file_size: pdf.length,
    });
    expect((await storedBytes(storage, `uploads/${id}/original`))?.equals(pdf)).toBe(true);
    expect(await rowOf(r.body)).toMatchObject({ kind: 'file', thumb_key: null, owner_id: 'noah', cid });
    const text = await uploadAs<UploadResponse>(
      server,
      { token: noah.token },
      '/uploads/file',
      Buffer.from('a,b\n1,2\n'),
      'sum.csv',
    );
    expect(text.body).toMatchObject({ mime_type: 'text/csv', file_size: 8 });
    const photo = await uploadAs<UploadResponse>(
      server,
      { token: noah.token },
      '/uploads/file',
      await jpegWithGps(),
      'scan.jpg',
    );
    expect(photo.body).toMatchObject({
      mime_type: 'image/jpeg',
      original_width: 200,
      thumb_url: expect.any(String) as string,
    });
    const cleaned = await storedBytes(storage, `uploads/${chatFileIdOf(photo.body.file)}/original`);
    expect((await sharp(cleaned).metadata()).exif).toBeUndefined();
  });

  it('makes a poster and reads the duration of a video, and the duration of voice recordings', async () => {
    const video = await uploadAs<UploadResponse>(
      server,
      { token: maria.token },
      `${channelPath}/file`,
      testVideo(media),
      'clip.mp4',
    );
    expect(video.status).toBe(200);
    expect(video.body).toMatchObject({ mime_type: 'video/mp4', original_width: 320, original_height: 240 });
    expect(video.body.duration).toBeCloseTo(2, 1);
    expect(video.body.thumb_url).toBe(`/chat/files/${chatFileIdOf(video.body.file)}/thumb`);
    const poster = await sharp(
      await storedBytes(storage, `uploads/${chatFileIdOf(video.body.file)}/thumb`),
    ).metadata();
    expect(poster).toMatchObject({ format: 'webp', width: 320, height: 240 });

    for (const [bytes, name, mime] of [
      [voiceWebm(media), 'voice.webm', 'audio/webm'],
      [voiceMp4(media), 'voice.m4a', 'audio/x-m4a'],
      [voiceWav(media), 'voice.wav', 'audio/wav'],
    ] as const) {
      const r = await uploadAs<UploadResponse>(server, { token: maria.token }, '/uploads/file', bytes, name);
      expect(r.status, name).toBe(200);
      expect(r.body.mime_type, name).toBe(mime);
      expect(r.body.duration, name).toBeCloseTo(name === 'voice.wav' ? 1 : 3, 0);
      expect(r.body.thumb_url, name).toBeUndefined();
      expect((await rowOf(r.body))?.duration, name).toBeCloseTo(r.body.duration ?? -1, 3);
    }
    // The type learnt from the streams is the one checked: a sound-only WebM passes an audio-only config.
    await setConfig({ file_upload_config: { allowed_mime_types: ['audio/*'] } });
    const voice = await uploadAs(server, { token: maria.token }, '/uploads/file', voiceWebm(media), 'v.webm');
    expect(voice.status).toBe(200);
    const clip = await uploadAs(server, { token: maria.token }, '/uploads/file', testVideo(media), 'c.mp4');
    expect(clip.body).toMatchObject({
      code: 4,
      message: 'MIME type video/mp4 is not allowed (file extension .mp4)',
    });
    await setConfig({ file_upload_config: {} });
  });

  it('answers the app settings to everyone, lets only the server change them', async () => {
    const initial = await maria.call('GET', '/app');
    expect(initial).toMatchObject({
      status: 200,
      body: { app: { image_upload_config: {}, file_upload_config: {} } },
    });
    const anon = await chatCall(server, 'GET', '/app', { authType: 'anonymous' });
    expect(anon.status).toBe(200);
    const refused = await maria.call('PATCH', '/app', { file_upload_config: { size_limit: 10 } });
    expect(refused).toMatchObject({ status: 403, body: { code: 17 } });
    const bad = await setConfig({ file_upload_config: { size_limit: -1 } });
    expect(bad).toMatchObject({ status: 400, body: { code: 4 } });
    const patched = await setConfig({
      file_upload_config: {
        blocked_file_extensions: ['EXE', '.Bat'],
        blocked_mime_types: ['application/zip'],
      },
    });
    expect(patched.status).toBe(200);
    const after = await noah.call('GET', '/app');
    expect(after.body).toEqual({
      app: {
        image_upload_config: {},
        file_upload_config: {
          blocked_file_extensions: ['.exe', '.bat'],
          blocked_mime_types: ['application/zip'],
        },
      },
    });
    await setConfig({ file_upload_config: {}, image_upload_config: {} });
  });

  it('enforces the upload config on the real content: code 4 "file extension", nothing stored', async () => {
    const before = await uploadCount();
    await setConfig({
      file_upload_config: { blocked_file_extensions: ['.bat'], blocked_mime_types: ['application/pdf'] },
      image_upload_config: { allowed_mime_types: ['image/png'] },
    });
    const pdfBytes = Buffer.from('%PDF-1.4\n%%EOF\n');
    const cases: Array<[string, Buffer, string]> = [
      ['/uploads/file', Buffer.from('@echo off\n'), 'run.bat'],
      // The name says .dat, the content is a PDF (blocked by its sniffed MIME type).
      ['/uploads/file', pdfBytes, 'notes.dat'],
      [
        '/uploads/image',
        await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
          .jpeg()
          .toBuffer(),
        'a.png',
      ],
    ];
    for (const [path, bytes, name] of cases) {
      const r = await uploadAs(server, { token: maria.token }, path, bytes, name);
      expect(r.status, name).toBe(400);
      expect(r.body, name).toMatchObject({
        code: 4,
        message: expect.stringMatching(/file extension/i) as string,
      });
    }
    await setConfig({
      file_upload_config: { allowed_file_extensions: ['pdf', 'jpg'] },
      image_upload_config: {},
    });
    const notAllowed = await uploadAs(
      server,
      { token: maria.token },
      '/uploads/file',
      Buffer.from('hi'),
      'a.txt',
    );
    expect(notAllowed.body).toMatchObject({ code: 4, message: 'File extension .txt is not allowed' });
    const allowed = await uploadAs(server, { token: maria.token }, '/uploads/file', pdfBytes, 'a.pdf');
    expect(allowed.status).toBe(200);
    expect(await uploadCount()).toBe(before + 1);
    await setConfig({ file_upload_config: {}, image_upload_config: {} });
  });

  it('refuses a file over the size limit with code 22 mentioning bytes, storing nothing', async () => {
    await setConfig({ file_upload_config: { size_limit: 1000 }, image_upload_config: { size_limit: 2000 } });
    const before = await uploadCount();
    const r = await uploadAs(
      server,
      { token: maria.token },
      `${channelPath}/file`,
      Buffer.alloc(5000, 7),
      'big.bin',
    );
    expect(r).toMatchObject({
      status: 413,
      body: { code: 22, message: expect.stringMatching(/1000 bytes/) as string },
    });
    const image = await uploadAs(
      server,
      { token: maria.token },
      '/uploads/image',
      await png(400, 400, '#123456'),
      'big.png',
    );
    expect(image).toMatchObject({ status: 413, body: { code: 22 } });
    const exact = await uploadAs(
      server,
      { token: maria.token },
      '/uploads/file',
      Buffer.alloc(1000, 1),
      'exact.bin',
    );
    expect(exact.status).toBe(200);
    expect(await uploadCount()).toBe(before + 1);
    // A large body over the limit is refused without being stored (and the answer arrives: the body is drained).
    const huge = await uploadAs(
      server,
      { token: maria.token },
      '/uploads/file',
      Buffer.alloc(8 * 1024 * 1024),
      'huge.bin',
    );
    expect(huge).toMatchObject({ status: 413, body: { code: 22 } });
    expect(await uploadCount()).toBe(before + 1);
    await setConfig({ file_upload_config: {}, image_upload_config: {} });
    expect((await maria.call('GET', '/app')).body).toEqual({
      app: { image_upload_config: {}, file_upload_config: {} },
    });
    expect(DEFAULT_UPLOAD_SIZE_LIMIT).toBe(100 * 1024 * 1024);
  });

  it('needs upload-file and read access on the channel; anonymous visitors upload nothing', async () => {
    const image = await png(20, 20);
    const outsider = await uploadAs(server, { token: eve.token }, `${channelPath}/image`, image, 'a.png');
    expect(outsider).toMatchObject({ status: 403, body: { code: 17 } });
    const missing = await uploadAs(
      server,
      { token: eve.token },
      '/channels/messaging/nope/file',
      image,
      'a.png',
    );
    expect(missing).toMatchObject({ status: 404, body: { code: 16 } });
    for (const path of [`${channelPath}/file`, '/uploads/file', '/uploads/image']) {
      const anon = await uploadAs(server, { authType: 'anonymous' }, path, image, 'a.png');
      expect(anon, path).toMatchObject({ status: 403, body: { code: 17 } });
    }
    // The channel type turns uploads off: members lose upload-file.
    await chatCall(server, 'POST', '/channeltypes', {
      token: serverToken,
      body: { name: 'noupload', uploads: false },
    });
    await server.app.chat.server.getOrCreateChannel('noupload', 'n1', { members: ['maria'] }, 'maria');
    const off = await uploadAs(server, { token: maria.token }, '/channels/noupload/n1/file', image, 'a.png');
    expect(off).toMatchObject({
      status: 403,
      body: { code: 17, message: expect.stringMatching(/upload-file/) as string },
    });
    // Anyone signed in may upload outside a channel; the server names the owner.
    const own = await uploadAs<UploadResponse>(
      server,
      { token: eve.token },
      '/uploads/file',
      Buffer.from('x'),
      'x.txt',
    );
    expect(own.status).toBe(200);
    const bySrv = await uploadAs<UploadResponse>(
      server,
      { token: serverToken },
      '/uploads/file',
      Buffer.from('x'),
      'x.txt',
      {
        fields: { user: JSON.stringify({ id: 'noah' }) },
      },
    );
    expect(bySrv.status).toBe(200);
    expect((await rowOf(bySrv.body))?.owner_id).toBe('noah');
    const noOwner = await uploadAs(
      server,
      { token: serverToken },
      '/uploads/file',
      Buffer.from('x'),
      'x.txt',
    );
    expect(noOwner).toMatchObject({ status: 400, body: { code: 4 } });
  });

  it('deletes only the owner’s unattached uploads', async () => {
    const up = await uploadAs<UploadResponse>(
      server,
      { token: maria.token },
      `${channelPath}/image`,
      await png(30, 30),
      'd.png',
    );
    const id = chatFileIdOf(up.body.file) ?? '';
    const del = (who: ChatUserClient | string, path: string, url = up.body.file) =>
      typeof who === 'string'
        ? chatCall(server, 'DELETE', path, { token: who, query: { url } })
        : who.call('DELETE', path, undefined, { url });
    expect(await del(noah, `${channelPath}/image`)).toMatchObject({ status: 403, body: { code: 17 } });
    expect(await del(eve, '/uploads/image')).toMatchObject({ status: 403, body: { code: 17 } });
    expect(await del(maria, '/uploads/file', '/chat/files/AAAAAAAAAAAAAAAAAAAAAA/x')).toMatchObject({
      status: 404,
      body: { code: 16 },
    });
    expect(await del(maria, '/uploads/file', 'https://example.com/x.png')).toMatchObject({
      status: 404,
      body: { code: 16 },
    });
    // Attached to a message (serve's send path sets message_id): no longer the uploader's to delete.
    await server.db.query(`UPDATE chat_uploads SET message_id = 'm-1' WHERE id = $1`, [id]);
    expect(await del(maria, `${channelPath}/image`)).toMatchObject({ status: 403, body: { code: 17 } });
    expect(await storedBytes(storage, `uploads/${id}/original`)).toBeDefined();
    await server.db.query(`UPDATE chat_uploads SET message_id = NULL WHERE id = $1`, [id]);
    expect(await del(maria, `${channelPath}/image`)).toMatchObject({ status: 200, body: {} });
    expect(await rowOf(up.body)).toBeUndefined();
    expect(await storedBytes(storage, `uploads/${id}/original`)).toBeUndefined();
    expect(await storedBytes(storage, `uploads/${id}/thumb`)).toBeUndefined();
    expect(await del(maria, `${channelPath}/image`)).toMatchObject({ status: 404, body: { code: 16 } });
    // A channel upload is deleted through its own channel's route (or /uploads), not another channel's.
    const other = await uploadAs<UploadResponse>(
      server,
      { token: eve.token },
      '/uploads/file',
      Buffer.from('y'),
      'y.txt',
    );
    expect(await del(eve, '/uploads/file', other.body.file)).toMatchObject({ status: 200 });
    const srv = await uploadAs<UploadResponse>(
      server,
      { token: maria.token },
      '/uploads/file',
      Buffer.from('z'),
      'z.txt',
    );
    expect(await del(serverToken, '/uploads/file', srv.body.file)).toMatchObject({ status: 200 });
  });

  it('an upload sent in a message is readable by the channel and no longer deletable (serve’s routes)', async () => {
    const up = await uploadAs<UploadResponse>(
      server,
      { token: maria.token },
      '/uploads/image',
      await png(40, 30),
      'sent.png',
    );
    const sent = await maria.call('POST', `${channelPath}/message`, {
      message: {
        text: 'photo',
        attachments: [{ type: 'image', image_url: up.body.file, thumb_url: up.body.thumb_url }],
      },
    });
    expect(sent.status).toBe(200);
    expect(await rowOf(up.body)).toMatchObject({ cid, message_id: expect.any(String) as string });
    const get = async (who: ChatUserClient, url: string) => {
      const u = new URL(url, server.url);
      u.searchParams.set('api_key', server.config.chatApiKey);
      const res = await fetch(u, { headers: { authorization: who.token, 'auth-type': 'jwt' } });
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        bytes: Buffer.from(await res.arrayBuffer()),
      };
    };
    const forNoah = await get(noah, up.body.file);
    expect(forNoah).toMatchObject({ status: 200, type: 'image/png' });
    expect((await sharp(forNoah.bytes).metadata()).width).toBe(40);
    expect((await get(noah, up.body.thumb_url ?? '')).type).toBe('image/webp');
    expect((await get(eve, up.body.file)).status).toBe(404);
    const del = await maria.call('DELETE', '/uploads/image', undefined, { url: up.body.file });
    expect(del).toMatchObject({ status: 403, body: { code: 17 } });
  });

  it('refuses requests that are not a multipart upload with code 4', async () => {
    const json = await maria.call('POST', '/uploads/file', { file: 'x' });
    expect(json).toMatchObject({ status: 400, body: { code: 4 } });
    const form = new FormData();
    form.append('note', 'no file');
    const url = new URL('/chat/uploads/file', server.url);
    url.searchParams.set('api_key', server.config.chatApiKey);
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: maria.token, 'auth-type': 'jwt' },
      body: form,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 4 });
  });

  it('leaves no temporary file behind; a crash’s leftovers are swept at start', () => {
    const dir = path.join(server.config.dataDir, 'tmp', 'uploads');
    expect(fs.readdirSync(dir)).toEqual([]);
    fs.writeFileSync(path.join(dir, 'old'), 'x');
    fs.writeFileSync(path.join(dir, 'fresh'), 'x');
    const hoursAgo = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(path.join(dir, 'old'), hoursAgo, hoursAgo);
    return sweepUploadTemp(server.config.dataDir).then((removed) => {
      expect(removed).toBe(1);
      expect(fs.readdirSync(dir)).toEqual(['fresh']);
      fs.rmSync(path.join(dir, 'fresh'));
    });
  });
});

describe('chat uploads without ffmpeg (PGlite)', () => {
  let server: TestServer;
  let media: string;

  beforeAll(async () => {
    server = await startTestServer({
      database: 'pglite',
      productChatRules: false,
      env: { FFMPEG_PATH: '/nonexistent/ffmpeg', FFPROBE_PATH: '/nonexistent/ffprobe' },
    });
    media = tempMediaDir();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('stores video and audio without poster or duration, images as usual', async () => {
    const maria = await chatUser(server, 'maria');
    const video = await uploadAs<UploadResponse>(
      server,
      { token: maria.token },
      '/uploads/file',
      testVideo(media),
      'clip.mp4',
    );
    expect(video.status).toBe(200);
    expect(video.body).toEqual({
      file: expect.any(String) as string,
      mime_type: 'video/mp4',
      file_size: expect.any(Number) as number,
    });
    const voice = await uploadAs<UploadResponse>(
      server,
      { token: maria.token },
      '/uploads/file',
      voiceWebm(media),
      'voice.webm',
    );
    expect(voice.status).toBe(200);
    expect(voice.body.duration).toBeUndefined();
    const image = await uploadAs<UploadResponse>(
      server,
      { token: maria.token },
      '/uploads/image',
      await jpegWithGps(),
      'p.jpg',
    );
    expect(image.body).toMatchObject({
      original_width: 200,
      original_height: 300,
      thumb_url: expect.any(String) as string,
    });
    const stored = await openStorage(server.config).stat(`uploads/${chatFileIdOf(image.body.file)}/thumb`);
    expect(stored?.size).toBeGreaterThan(0);
  });
});

describe('chat uploads on S3 (s3rver)', () => {
  let s3: LocalS3;
  let server: TestServer;

  beforeAll(async () => {
    s3 = await startS3rver();
    await s3.createBucket('uploads-test');
    server = await startTestServer({ productChatRules: false, env: s3.env('uploads-test') });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  it('stores the clean original and the thumbnail in the bucket, and deletes them', async () => {
    const storage = openStorage(server.config);
    expect(storage.kind).toBe('s3');
    const maria = await chatUser(server, 'maria');
    const r = await uploadAs<UploadResponse>(
      server,
      { token: maria.token },
      '/uploads/image',
      await jpegWithGps(),
      'p.jpg',
    );
    expect(r.status).toBe(200);
    const id = chatFileIdOf(r.body.file) ?? '';
    const original = await storedBytes(storage, `uploads/${id}/original`);
    expect(original?.length).toBe(r.body.file_size);
    expect((await sharp(original).metadata()).exif).toBeUndefined();
    expect((await sharp(await storedBytes(storage, `uploads/${id}/thumb`)).metadata()).format).toBe('webp');
    const del = await maria.call('DELETE', '/uploads/image', undefined, { url: r.body.file });
    expect(del.status).toBe(200);
    expect(await storage.stat(`uploads/${id}/original`)).toBeUndefined();
    expect(await storage.stat(`uploads/${id}/thumb`)).toBeUndefined();
  });
});
