// @vitest-environment jsdom
import { createRef } from 'react';
import { CAPABILITIES } from '@caseroom/protocol';
import type { ChatClient } from '@caseroom/sdk';
import { connectFakeClient, FakeChatServer } from '@caseroom/sdk/testing';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotificationList } from '../notices/NotificationList';
import type { ChannelHandle } from '../sdkTypes';
import { Composer } from './Composer';
import { useFileDrop } from './useFileDrop';

let server: FakeChatServer;
let client: ChatClient;
let channel: ChannelHandle;

beforeEach(async () => {
  server = new FakeChatServer();
  server.createChannel('messaging', 'general', { members: ['amy', 'bob'] }, 'amy');
  client = await connectFakeClient(server, { id: 'amy', name: 'Amy' });
  channel = client.channel('messaging', 'general');
  await channel.watch();
});

afterEach(async () => {
  cleanup();
  await client.disconnectUser();
});

function renderComposer() {
  const inputRef = createRef<HTMLTextAreaElement>();
  render(
    <>
      <NotificationList client={client} />
      <Composer composer={channel.composer} mode="main" inputRef={inputRef} />
    </>,
  );
  return screen.getByRole('textbox', { name: 'Message' });
}

const pdf = (name = 'letter.pdf', size = 2_400_000) =>
  new File([new Uint8Array(size)], name, { type: 'application/pdf' });
const choose = (files: File[]) => fireEvent.change(screen.getByTestId('attach-input'), { target: { files } });
const previews = () => within(screen.getByRole('list', { name: 'Attachments' }));

describe('Composer attachments (chat-spec §2, §5)', () => {
  it('the file button uploads with progress, sending waits with the notice, an attachment-only message is sent', async () => {
    const input = renderComposer();
    const button = screen.getByRole('button', { name: 'Attach files' });
    expect(button).toHaveProperty('disabled', false);
    const release = server.holdUploads();
    choose([pdf()]);
    expect(previews().getByText('letter.pdf')).toBeTruthy();
    expect(previews().getByText('2.3 MB')).toBeTruthy();
    await waitFor(() =>
      expect(previews().getByRole('progressbar', { name: 'Uploading letter.pdf' })).toBeTruthy(),
    );
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toHaveProperty('disabled', true);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(await screen.findByText('Wait until all attachments have uploaded')).toBeTruthy();

    act(() => release());
    await waitFor(() => expect(previews().getByRole('button', { name: 'Download letter.pdf' })).toBeTruthy());
    expect(screen.queryByText('Wait until all attachments have uploaded')).toBeNull();
    expect(previews().queryByRole('progressbar')).toBeNull();
    expect(send).toHaveProperty('disabled', false);
    fireEvent.click(send);
    await waitFor(() =>
      expect(channel.state.getSnapshot().messages.at(-1)?.attachments).toMatchObject([
        { type: 'file', title: 'letter.pdf', file_size: 2_400_000, mime_type: 'application/pdf' },
      ]),
    );
    expect(screen.queryByRole('list', { name: 'Attachments' })).toBeNull();
  });

  it('a failed upload offers Retry; a blocked one says why; Remove deletes a finished upload', async () => {
    server.appSettings = {
      image_upload_config: {},
      file_upload_config: { blocked_file_extensions: ['.exe'] },
    };
    renderComposer();
    server.failNext(/POST .*\/file$/, { status: 500, code: -1, message: 'disk full' });
    choose([pdf('report.pdf', 10), new File(['x'], 'setup.exe', { type: 'application/x-msdownload' })]);
    const retry = await screen.findByRole('button', { name: 'Retry upload of report.pdf' });
    expect(previews().getByText('Upload failed')).toBeTruthy();
    expect(previews().getByText('File type not allowed')).toBeTruthy();
    expect(screen.getByText('Error uploading "setup.exe", type .exe not supported')).toBeTruthy();
    expect(screen.getByText('Error uploading file "report.pdf"')).toBeTruthy();

    fireEvent.click(retry);
    await waitFor(() => expect(previews().getByRole('button', { name: 'Download report.pdf' })).toBeTruthy());
    fireEvent.click(previews().getByRole('button', { name: 'Remove report.pdf' }));
    await waitFor(() => expect(server.requestsTo(/DELETE .*\/file$/)).toHaveLength(1));
    expect(previews().queryByText('report.pdf')).toBeNull();
    fireEvent.click(previews().getByRole('button', { name: 'Remove setup.exe' }));
    expect(screen.queryByRole('list', { name: 'Attachments' })).toBeNull();
  });

  it('pasted files and files dropped on the composer become attachments; the drop zone shows while dragging', async () => {
    const input = renderComposer();
    const image = new File([new Uint8Array(20)], 'pasted.png', { type: 'image/png' });
    fireEvent.paste(input, { clipboardData: { files: [image], types: ['Files'] } });
    expect(await previews().findByText('pasted.png')).toBeTruthy();

    const form = input.closest('form') as HTMLFormElement;
    const dataTransfer = { files: [pdf('dropped.pdf', 10)], types: ['Files'], dropEffect: 'none' };
    fireEvent.dragEnter(form, { dataTransfer });
    expect(screen.getByTestId('drop-zone').textContent).toBe('Drop files to attach them');
    fireEvent.dragOver(form, { dataTransfer });
    fireEvent.drop(form, { dataTransfer });
    expect(screen.queryByTestId('drop-zone')).toBeNull();
    expect(await previews().findByText('dropped.pdf')).toBeTruthy();
    await waitFor(() =>
      expect(channel.composer.attachments.state.getSnapshot().attachments.map((a) => a.type)).toEqual([
        'image',
        'file',
      ]),
    );
  });

  it('the channel and the composer in it show one drop zone at a time, wherever the files are', async () => {
    function ChannelArea() {
      const attachments = channel.composer.attachments;
      const drop = useFileDrop(attachments);
      return (
        <div data-testid="channel-area" {...drop.handlers}>
          {drop.overlay}
          <p data-testid="list">messages</p>
          <Composer composer={channel.composer} mode="main" inputRef={createRef()} />
        </div>
      );
    }
    render(<ChannelArea />);
    const list = screen.getByTestId('list');
    const input = screen.getByRole('textbox', { name: 'Message' });
    const zones = () => screen.queryAllByTestId('drop-zone').map((z) => z.parentElement?.tagName);
    const dataTransfer = { files: [pdf('moved.pdf', 10)], types: ['Files'], dropEffect: 'none' };
    fireEvent.dragEnter(list, { dataTransfer });
    expect(zones()).toEqual(['DIV']);
    fireEvent.dragEnter(input, { dataTransfer });
    fireEvent.dragLeave(list, { dataTransfer });
    expect(zones()).toEqual(['FORM']);
    fireEvent.dragEnter(list, { dataTransfer });
    fireEvent.dragLeave(input, { dataTransfer });
    expect(zones()).toEqual(['DIV']);
    fireEvent.drop(list, { dataTransfer });
    expect(zones()).toEqual([]);
    expect(await previews().findByText('moved.pdf')).toBeTruthy();
    await waitFor(() => expect(channel.composer.attachments.state.getSnapshot().uploadsInProgress).toBe(0));
    expect(channel.composer.attachments.state.getSnapshot().attachments).toHaveLength(1);
  });

  it('the button is off without upload-file and at the maximum; over the maximum the count notice shows', async () => {
    renderComposer();
    const button = screen.getByRole('button', { name: 'Attach files' });
    act(() =>
      server.emit('messaging:general', {
        type: 'capabilities.changed',
        cid: 'messaging:general',
        created_at: new Date().toISOString(),
        own_capabilities: CAPABILITIES.filter((c) => c !== 'upload-file'),
      }),
    );
    await waitFor(() => expect(button).toHaveProperty('disabled', true));
    expect(button.getAttribute('title')).toBe("You can't upload files in this channel");
    act(() =>
      server.emit('messaging:general', {
        type: 'capabilities.changed',
        cid: 'messaging:general',
        created_at: new Date().toISOString(),
        own_capabilities: [...CAPABILITIES],
      }),
    );
    await waitFor(() => expect(button).toHaveProperty('disabled', false));

    choose(Array.from({ length: 30 }, (_, i) => pdf(`f${i}.pdf`, 5)));
    await waitFor(() => expect(button).toHaveProperty('disabled', true));
    expect(button.getAttribute('title')).toBe("You can't uplod more than 30 attachments");
    expect(screen.getByText("You can't uplod more than 30 attachments")).toBeTruthy();
    act(() => channel.composer.attachments.upsertAttachments([{ type: 'custom', title: 'one more' }]));
    expect(screen.getByRole('status').textContent).toBe(
      'You currently have 31 attachments, the maximum is 30',
    );
    await waitFor(() => expect(channel.composer.attachments.state.getSnapshot().uploadsInProgress).toBe(0));
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', true);
  });
});
