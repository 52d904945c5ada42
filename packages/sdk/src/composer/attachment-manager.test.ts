import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatChannel } from '../channels/channel.js';
import type { ChatClient } from '../client/chat-client.js';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';
import { ATTACHMENT_ERRORS } from './attachment-checks.js';
import type { LocalAttachment } from './attachment-manager.js';
import { uploadRecordOf } from './local-attachments.js';

let server: FakeChatServer;
let amy: ChatClient;
let channel: ChatChannel;

beforeEach(async () => {
  server = new FakeChatServer();
  server.createChannel('messaging', 'general', { members: ['amy', 'bob'] }, 'amy');
  amy = await connectFakeClient(server, { id: 'amy', name: 'Amy' });
  channel = amy.channel('messaging', 'general');
  await channel.watch();
});
afterEach(async () => {
  await amy.disconnectUser();
});

const pdf = (name = 'letter.pdf', size = 1200) =>
  new File([new Uint8Array(size)], name, { type: 'application/pdf' });
const png = (name = 'photo.png') => new File([new Uint8Array(300)], name, { type: 'image/png' });
const notices = () => amy.notifications.getSnapshot().map((n) => n.text);
const states = () =>
  channel.composer.attachments.state.getSnapshot().attachments.map((a) => a.localMetadata.uploadState);
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 1));
  expect(check()).toBe(true);
};

describe('channel uploads (chat-spec §7)', () => {
  it('sendFile and sendImage post the multipart field file; deleteFile removes it; getAppSettings reads /app once', async () => {
    const progress: number[] = [];
    const file = await channel.sendFile(pdf(), undefined, undefined, {
      onProgress: (p) => progress.push(p.loaded),
    });
    expect(file).toMatchObject({
      file: expect.stringMatching(/^\/chat\/files\/\w+\/letter\.pdf$/),
      file_size: 1200,
    });
    // Node: the body is a stream counted as the server reads it; the last report is the whole file.
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1200);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const request = server.requestsTo(/POST \/channels\/messaging\/general\/file/)[0];
    expect((request?.form?.get('file') as File).name).toBe('letter.pdf');
    expect(request?.headers.authorization).toBe(server.tokenFor('amy'));

    const image = await channel.sendImage(png(), 'renamed.png', 'image/png');
    expect(image).toMatchObject({ thumb_url: expect.stringContaining('/thumb'), original_width: 640 });

    await channel.deleteFile(file.file);
    expect([...server.uploads.values()].find((u) => u.url === file.file)?.deleted).toBe(true);
    await expect(channel.deleteFile(file.file)).rejects.toMatchObject({ code: 16 });

    server.appSettings = { image_upload_config: { size_limit: 5 }, file_upload_config: {} };
    expect((await amy.getAppSettings()).image_upload_config.size_limit).toBe(5);
    await amy.getAppSettings();
    expect(server.requestsTo(/GET \/app/)).toHaveLength(1);
  });

  it('an aborted upload rejects as a network error', async () => {
    const release = server.holdUploads();
    const controller = new AbortController();
    const upload = channel.sendFile(pdf(), undefined, undefined, { signal: controller.signal });
    controller.abort();
    await expect(upload).rejects.toMatchObject({ network: true });
    release();
  });
});

describe('attachment manager (chat-spec §3-§5)', () => {
  it('pending, uploading, finished; the attachment carries what the upload learnt; sent with the message', async () => {
    const release = server.holdUploads();
    const composer = channel.composer;
    const adding = composer.attachments.addFiles([pdf(), png()]);
    expect(states()).toEqual(['pending', 'pending']);
    await until(() => states().every((s) => s === 'uploading'));
    expect(composer.attachments.state.getSnapshot().uploadsInProgress).toBe(2);
    expect(composer.state.getSnapshot().blockReason).toBe('uploads-pending');
    expect(composer.canSend).toBe(false);

    // Sending waits: the persistent notice stays until the uploads are done.
    expect(await composer.send()).toBeUndefined();
    expect(amy.notifications.getSnapshot()).toMatchObject([
      { text: 'Wait until all attachments have uploaded', permanent: true },
    ]);
    release();
    const done = await adding;
    expect(done.map((a) => a.localMetadata.uploadState)).toEqual(['finished', 'finished']);
    expect(notices()).toEqual([]);
    expect(done[0]).toMatchObject({
      type: 'file',
      title: 'letter.pdf',
      file_size: 1200,
      mime_type: 'application/pdf',
      asset_url: expect.stringMatching(/^\/chat\/files\//),
      localMetadata: { progress: 100 },
    });
    expect(done[1]).toMatchObject({
      type: 'image',
      image_url: expect.stringMatching(/photo\.png$/),
      thumb_url: expect.stringMatching(/\/thumb$/),
      original_width: 640,
      original_height: 480,
    });
    expect(uploadRecordOf(done[0] as LocalAttachment)).toMatchObject({ state: 'success', type: 'file' });

    // An attachment-only message can be sent; the attachments leave the composer.
    expect(composer.state.getSnapshot().blockReason).toBeUndefined();
    expect(composer.canSend).toBe(true);
    const sent = await composer.send();
    expect(sent?.status).toBe('received');
    expect(sent?.attachments).toHaveLength(2);
    const body = server.requestsTo(/POST \/channels\/messaging\/general\/message/)[0]?.body as {
      message: { attachments: Record<string, unknown>[] };
    };
    expect(body.message.attachments[0]).not.toHaveProperty('localMetadata');
    expect(body.message.attachments[1]).toMatchObject({
      type: 'image',
      title: 'photo.png',
      original_width: 640,
    });
    expect(states()).toEqual([]);
    expect([...server.uploads.values()].every((u) => !u.deleted)).toBe(true);
  });

  it('blocked by the app config with the reason and the exact texts; checks pass when /app fails', async () => {
    server.appSettings = {
      image_upload_config: { size_limit: 200 },
      file_upload_config: {
        blocked_file_extensions: ['.exe'],
        allowed_mime_types: ['application/*', 'text/plain'],
      },
    };
    const [exe, big, csv] = await channel.composer.attachments.addFiles([
      new File(['x'], 'setup.exe', { type: 'application/octet-stream' }),
      png('big.png'),
      new File(['a,b'], 'table.csv', { type: 'text/csv' }),
    ]);
    expect(exe?.localMetadata).toMatchObject({
      uploadState: 'blocked',
      uploadPermissionCheck: { uploadBlocked: true, reason: 'blocked_file_extensions' },
    });
    expect(big?.localMetadata.uploadPermissionCheck?.reason).toBe('size_limit');
    expect(csv?.localMetadata.uploadPermissionCheck?.reason).toBe('allowed_mime_types');
    expect(notices()).toEqual([
      'Error uploading "setup.exe", type .exe not supported',
      'Error uploading "big.png", maximum file size 0.0002MB exceeded',
      'Error uploading "table.csv", type .csv not supported',
    ]);
    expect(server.requestsTo(/POST .*\/(file|image)$/)).toHaveLength(0);
    await expect(channel.composer.attachments.uploadAttachment(exe as LocalAttachment)).rejects.toThrow(
      ATTACHMENT_ERRORS.blocked,
    );

    // A fresh client whose /app fails: nothing is blocked up front, the upload goes out and the server decides.
    const other = await connectFakeClient(server, { id: 'bob' });
    server.failNext(/GET \/app/, { status: 500, code: -1, message: 'down' });
    const bobs = other.channel('messaging', 'general');
    await bobs.watch();
    const [passed] = await bobs.composer.attachments.addFiles([
      new File(['x'], 'setup.exe', { type: 'application/octet-stream' }),
    ]);
    expect(passed?.localMetadata).toMatchObject({ uploadState: 'failed', errorReason: 'file-extension' });
    expect(server.requestsTo(/POST .*\/file$/)).toHaveLength(1);
    await other.disconnectUser();
  });

  it('the fallback limit text is 100MB; sizes in MB from the configured limit', async () => {
    server.appSettings = { image_upload_config: {}, file_upload_config: { size_limit: 25_000_000 } };
    await channel.composer.attachments.addFiles([pdf('huge.pdf', 25_000_001)]);
    expect(notices()).toEqual(['Error uploading "huge.pdf", maximum file size 25MB exceeded']);
  });

  it('server refusals map to file-size, file-extension and unknown; retry goes back to uploading', async () => {
    const attachments = channel.composer.attachments;
    server.failNext(/POST .*\/file$/, { status: 413, code: 22, message: 'payload too big' });
    server.failNext(/POST .*\/file$/, { status: 400, code: 4, message: 'file should be at most 10 bytes' });
    server.failNext(/POST .*\/file$/, {
      status: 400,
      code: 4,
      message: 'file extension .pdf is not allowed',
    });
    server.failNext(/POST .*\/file$/, { status: 500, code: -1, message: 'disk full' });
    const ended: LocalAttachment[] = [];
    for (const name of ['a.pdf', 'b.pdf', 'c.pdf', 'd.pdf'])
      ended.push(...(await attachments.addFiles([pdf(name)])));
    expect(ended.map((a) => [a.localMetadata.uploadState, a.localMetadata.errorReason])).toEqual([
      ['failed', 'file-size'],
      ['failed', 'file-size'],
      ['failed', 'file-extension'],
      ['failed', 'unknown'],
    ]);
    expect(ended[3]?.localMetadata.errorExtraInfo).toBe('disk full');
    expect(uploadRecordOf(ended[3] as LocalAttachment)).toMatchObject({
      state: 'error',
      errorReason: 'unknown',
    });
    expect(notices()).toEqual([
      'Error uploading "a.pdf", maximum file size 100MB exceeded',
      // The server's message names its limit: that one is shown, not the client's (possibly stale) settings'.
      'Error uploading "b.pdf", maximum file size 0.00001MB exceeded',
      'Error uploading "c.pdf", type .pdf not supported',
      'Error uploading file "d.pdf"',
    ]);
    // Failed attachments are not sent: with no text the composition is empty.
    expect(channel.composer.state.getSnapshot().blockReason).toBe('empty');

    const release = server.holdUploads();
    const retried = attachments.retry(ended[3]!.localMetadata.id);
    await until(() => states()[3] === 'uploading');
    release();
    expect((await retried)?.localMetadata.uploadState).toBe('finished');
    expect(channel.composer.state.getSnapshot().blockReason).toBeUndefined();

    server.failNext(/POST .*\/file$/, { status: 500, code: -1, message: 'again' });
    const failing = {
      ...ended[2]!,
      localMetadata: { ...ended[2]!.localMetadata, uploadState: 'failed' as const },
    };
    await expect(attachments.uploadAttachment(failing)).rejects.toThrow(ATTACHMENT_ERRORS.uploadFailed);
    await expect(
      attachments.uploadAttachment({ ...failing, localMetadata: { ...failing.localMetadata, id: '' } }),
    ).rejects.toThrow(ATTACHMENT_ERRORS.missingLocalId);
    const { file: _file, ...noFile } = failing.localMetadata;
    await expect(attachments.uploadAttachment({ ...failing, localMetadata: noFile })).rejects.toThrow(
      ATTACHMENT_ERRORS.fileRequired,
    );
  });

  it('remove: aborts a running upload, deletes a finished one, says "Error deleting attachment" when that fails', async () => {
    const attachments = channel.composer.attachments;
    const [done] = await attachments.addFiles([pdf()]);
    await attachments.remove(done!.localMetadata.id);
    expect(states()).toEqual([]);
    expect(server.requestsTo(/DELETE .*\/file$/)[0]?.query.url).toBe(done?.asset_url);

    const [image] = await attachments.addFiles([png()]);
    server.failNext(/DELETE .*\/image$/, { status: 500, code: -1, message: 'no' });
    await attachments.remove(image!.localMetadata.id);
    expect(notices()).toEqual(['Error deleting attachment']);

    const release = server.holdUploads();
    const adding = attachments.addFiles([pdf('slow.pdf')]);
    await until(() => states()[0] === 'uploading');
    await attachments.remove(attachments.state.getSnapshot().attachments[0]!.localMetadata.id);
    release();
    await adding;
    expect(states()).toEqual([]);
    expect(attachments.state.getSnapshot().uploadsInProgress).toBe(0);
  });

  it('counts: the upload control stops at 30, more than 30 disables sending with the count notice', async () => {
    const attachments = channel.composer.attachments;
    const files = Array.from({ length: 32 }, (_, i) => pdf(`f${i}.pdf`, 10));
    const added = await attachments.addFiles(files);
    expect(added).toHaveLength(30);
    expect(notices()).toEqual(["You can't uplod more than 30 attachments"]);
    const snap = attachments.state.getSnapshot();
    expect(snap).toMatchObject({ canUpload: false, limitText: "You can't uplod more than 30 attachments" });
    expect(snap.countNotice).toBeUndefined();
    expect(channel.composer.state.getSnapshot().blockReason).toBeUndefined();
    // More than the maximum only through attachments that need no upload (custom ones, an edited message's).
    attachments.upsertAttachments([{ type: 'custom', title: 'extra' }]);
    expect(attachments.state.getSnapshot().countNotice).toBe(
      'You currently have 31 attachments, the maximum is 30',
    );
    expect(channel.composer.state.getSnapshot().blockReason).toBe('too-many-attachments');
  });

  it('no upload-file capability: the control is off and files are ignored', async () => {
    const caps = channel.state.getSnapshot().channel!.own_capabilities.filter((c) => c !== 'upload-file');
    server.emit('messaging:general', {
      type: 'capabilities.changed',
      cid: 'messaging:general',
      created_at: new Date().toISOString(),
      own_capabilities: caps,
    });
    await until(() => !channel.can('upload-file'));
    expect(channel.composer.attachments.state.getSnapshot().canUpload).toBe(false);
    expect(await channel.composer.attachments.addFiles([pdf()])).toEqual([]);
  });

  it('edit mode loads the message attachments and keeps the composition; voice recordings carry duration and waveform', async () => {
    const composer = channel.composer;
    const voice = await composer.attachments.addVoiceRecording(
      new Blob([new Uint8Array(50)], { type: 'audio/webm' }),
      {
        duration: 3.2,
        waveform_data: [0.1, 0.5, 1],
      },
    );
    expect(voice).toMatchObject({
      type: 'voiceRecording',
      title: 'file.webm',
      duration: 3.2,
      waveform_data: [0.1, 0.5, 1],
      asset_url: expect.stringMatching(/^\/chat\/files\//),
      localMetadata: { uploadState: 'finished' },
    });
    const sent = await channel.sendMessage({
      text: 'old',
      attachments: [{ type: 'file', title: 'kept.pdf', asset_url: '/x' }],
    });
    composer.startEditing(channel.findMessage(sent.id)!);
    expect(composer.attachments.state.getSnapshot().attachments.map((a) => a.title)).toEqual(['kept.pdf']);
    const [extra] = await composer.attachments.addFiles([pdf('added.pdf')]);
    await composer.attachments.remove(
      composer.attachments.state.getSnapshot().attachments[0]!.localMetadata.id,
    );
    expect(server.requestsTo(/DELETE/)).toHaveLength(0); // the message's own file is only left out
    await composer.send();
    expect(channel.findMessage(sent.id)?.attachments.map((a) => a.title)).toEqual(['added.pdf']);
    expect(extra?.localMetadata.uploadState).toBe('finished');
    // Back to what was being composed before the edit.
    expect(composer.attachments.state.getSnapshot().attachments.map((a) => a.type)).toEqual([
      'voiceRecording',
    ]);

    // An edit left without saving deletes what it uploaded.
    composer.startEditing(channel.findMessage(sent.id)!);
    const [dropped] = await composer.attachments.addFiles([pdf('dropped.pdf')]);
    composer.cancelEditing();
    await until(() => server.requestsTo(/DELETE/).length === 1);
    expect(server.requestsTo(/DELETE/)[0]?.query.url).toBe(dropped?.asset_url);
  });

  it('thread composers send attachments with the reply', async () => {
    const parent = await channel.sendMessage({ text: 'parent' });
    const thread = amy.threads.thread(parent, channel);
    await thread.composer.attachments.addFiles([pdf('reply.pdf')]);
    const reply = await thread.composer.send();
    expect(reply).toMatchObject({
      parent_id: parent.id,
      attachments: [{ title: 'reply.pdf', type: 'file' }],
    });
  });
});
