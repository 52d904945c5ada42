// @vitest-environment jsdom
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Attachment } from '@caseroom/protocol';
import { FileCache, type ChatClient } from '@caseroom/sdk';
import { connectFakeClient, FakeChatServer } from '@caseroom/sdk/testing';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChatContext } from '../../ChatContext';
import { QuotedMessage } from '../QuotedMessage';
import { AttachmentList } from './AttachmentList';

/** A real HTTP server on loopback standing in for the chat file route; counts downloads. */
let files: http.Server;
let filesOrigin: string;
let downloads: string[] = [];
let client: ChatClient;
let objectUrls = 0;

beforeAll(async () => {
  files = http.createServer((req, res) => {
    downloads.push(req.url ?? '');
    res.writeHead(req.headers.authorization ? 200 : 401, { 'content-type': 'image/png' });
    res.end('png');
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesOrigin = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => files.close(() => resolve())));

beforeEach(async () => {
  downloads = [];
  const server = new FakeChatServer();
  client = await connectFakeClient(server, { id: 'amy', name: 'Amy' });
  // The fake chat server has no file route: the file cache talks to the loopback server above instead.
  const cache = new FileCache({
    apiKey: 'key',
    baseUrl: `${filesOrigin}/chat`,
    fetch: globalThis.fetch.bind(globalThis),
    tokens: () => ({ get: async () => 'tok', peek: () => 'tok', anonymous: false }) as never,
    // jsdom has no URL.createObjectURL.
    createObjectURL: () => `blob:test/${++objectUrls}`,
    revokeObjectURL: () => undefined,
  });
  Object.defineProperty(client, 'files', { value: cache });
});

afterEach(async () => {
  cleanup();
  await client.disconnectUser();
});

function renderList(attachments: Attachment[]) {
  return render(
    <ChatContext.Provider value={{ status: 'ready', client, userId: 'amy' }}>
      <AttachmentList attachments={attachments} />
    </ChatContext.Provider>,
  );
}

const data = (n: number) => `data:image/png;base64,${btoa(`image-${n}`)}`;
const images = (count: number): Attachment[] =>
  Array.from({ length: count }, (_, i) => ({
    type: 'image',
    image_url: data(i + 1),
    title: `Photo ${i + 1}`,
    original_width: 800,
    original_height: 600,
  }));

describe('AttachmentList (chat-spec §2)', () => {
  it('renders each type: image, video, audio, file, voice, giphy, actions, og as a link card', () => {
    const { container } = renderList([
      {
        type: 'image',
        image_url: data(1),
        title: 'Scan of the letter',
        original_width: 1000,
        original_height: 500,
      },
      { type: 'video', asset_url: 'https://cdn.test/v.mp4', thumb_url: data(2), title: 'Clip' },
      { type: 'audio', asset_url: 'https://cdn.test/a.mp3', title: 'Call.mp3', file_size: 2048 },
      {
        type: 'file',
        asset_url: 'https://cdn.test/f.pdf',
        title: 'Form.pdf',
        mime_type: 'application/pdf',
        file_size: 123_456,
      },
      {
        type: 'voiceRecording',
        asset_url: 'https://cdn.test/r.webm',
        duration: 65,
        waveform_data: [0.2, 0.9],
      },
      { type: 'giphy', giphy: { fixed_height_downsampled: { url: data(3), height: '200', width: '250' } } },
      { type: 'custom', title: 'Approve?', actions: [{ name: 'answer', text: 'Yes', value: 'yes' }] },
      { type: 'image', image_url: data(4), og_scrape_url: 'https://site.test', title: 'A page' },
    ]);
    const img = screen.getByRole('img', { name: 'Scan of the letter' });
    expect(img.getAttribute('src')).toBe(data(1));
    // The placeholder holds the original's aspect ratio within 300 x 300.
    expect((img.parentElement as HTMLElement).style.aspectRatio).toBe('300 / 150');
    const video = container.querySelector('video')!;
    expect(video.getAttribute('preload')).toBe('metadata');
    expect(video.hasAttribute('controls')).toBe(true);
    expect(video.getAttribute('poster')).toBe(data(2));
    expect(container.querySelector('.attachment-audio audio')!.getAttribute('src')).toBe(
      'https://cdn.test/a.mp3',
    );
    const file = screen.getByText('Form.pdf').closest('.attachment-file') as HTMLElement;
    expect(within(file).getByText('121 KB')).toBeTruthy();
    expect(file.dataset.fileFamily).toBe('pdf');
    expect(within(file).getByRole('link', { name: 'Download Form.pdf' }).getAttribute('rel')).toBe(
      'noopener noreferrer',
    );
    expect(screen.getByRole('slider', { name: 'Playback position' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'GIF' }).getAttribute('height')).toBe('200');
    expect(screen.getByRole('button', { name: 'Yes' })).toHaveProperty('disabled', true);
    // The link card: the page's title as a link, never the page's image (LinkCard.tsx).
    expect(screen.getByRole('link', { name: 'A page' }).closest('[data-testid="link-card"]')).not.toBeNull();
    expect(container.querySelector(`img[src="${data(4)}"]`)).toBeNull();
  });

  it('shows 4 gallery tiles, the fourth "+N more", from 2 images on', () => {
    renderList(images(6));
    const gallery = screen.getByRole('group', { name: 'Gallery of 6 images' });
    const tiles = within(gallery).getAllByRole('button');
    expect(tiles.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Open image 1 of 6',
      'Open image 2 of 6',
      'Open image 3 of 6',
      '+3 more',
    ]);
    cleanup();
    renderList(images(3));
    expect(
      within(screen.getByRole('group', { name: 'Gallery of 3 images' })).getAllByRole('button'),
    ).toHaveLength(3);
    cleanup();
    renderList(images(1));
    expect(screen.queryByRole('group')).toBeNull();
    expect(screen.getByRole('button', { name: 'Photo 1' })).toBeTruthy();
  });

  it('opens the carousel at the tile, steps with buttons and arrow keys, closes on Escape and gives focus back', async () => {
    renderList(images(5));
    const tile = screen.getByRole('button', { name: 'Open image 2 of 5' });
    tile.focus();
    fireEvent.click(tile);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading').textContent).toContain('2 / 5');
    expect(within(dialog).getByRole('img').getAttribute('alt')).toBe('Photo 2');
    const content = dialog.querySelector('.carousel-content')!;
    fireEvent.keyDown(content, { key: 'ArrowRight' });
    expect(within(dialog).getByRole('heading').textContent).toContain('3 / 5');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next image' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next image' }));
    expect(within(dialog).getByRole('heading').textContent).toContain('5 / 5');
    expect(within(dialog).getByRole('button', { name: 'Next image' })).toHaveProperty('disabled', true);
    for (let i = 0; i < 6; i++) fireEvent.keyDown(content, { key: 'ArrowLeft' });
    expect(within(dialog).getByRole('heading').textContent).toContain('1 / 5');
    expect(within(dialog).getByRole('button', { name: 'Previous image' })).toHaveProperty('disabled', true);
    fireEvent.keyDown(content, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(tile);
  });

  it('cycles the voice playback rate 1.0, 1.5, 2.0, 1.0 and shows the error state when playback fails', () => {
    const { container } = renderList([
      { type: 'voiceRecording', asset_url: 'https://cdn.test/r.webm', duration: 3725, waveform_data: [0.5] },
    ]);
    expect(container.querySelectorAll('.voice-bar')).toHaveLength(40);
    expect(container.querySelector('.voice-time-full')!.textContent).toBe('00:00 / 01:02:05');
    const labels: string[] = [];
    for (let i = 0; i < 4; i++) {
      const button = screen.getByRole('button', { name: /^Playback speed/ });
      labels.push(button.textContent ?? '');
      fireEvent.click(button);
    }
    expect(labels).toEqual(['1.0x', '1.5x', '2.0x', '1.0x']);
    const audio = container.querySelector('audio')!;
    expect(audio.playbackRate).toBe(1.5);
    act(() => {
      audio.currentTime = 1862;
      fireEvent.timeUpdate(audio);
    });
    expect(container.querySelectorAll('.voice-bar-played')).toHaveLength(20);
    fireEvent.error(audio);
    expect(screen.getByRole('alert').textContent).toBe('Error playing audio');
    expect(container.querySelector('.voice-player')!.getAttribute('data-state')).toBe('error');
    expect(client.notifications.getSnapshot().map((n) => n.text)).toContain('Error playing audio');
  });

  it('downloads a chat image once with the token, however often it renders', async () => {
    const photo: Attachment = {
      type: 'image',
      image_url: '/chat/files/upl_0123456789abcdef/photo.jpg',
      title: 'Chat photo',
      original_width: 1200,
      original_height: 900,
    };
    renderList([photo]);
    renderList([photo]);
    await waitFor(() => expect(screen.getAllByRole('img', { name: 'Chat photo' })).toHaveLength(2));
    const srcs = screen.getAllByRole('img', { name: 'Chat photo' }).map((i) => i.getAttribute('src'));
    expect(srcs[0]).toMatch(/^blob:/);
    expect(srcs[1]).toBe(srcs[0]);
    expect(downloads).toEqual(['/chat/files/upl_0123456789abcdef/photo.jpg?api_key=key&w=600&h=450']);
  });
});

describe('QuotedMessage (chat-spec §2: only the first attachment)', () => {
  it('shows the first attachment of the quoted message', () => {
    render(
      <ChatContext.Provider value={{ status: 'ready', client, userId: 'amy' }}>
        <QuotedMessage
          message={{
            id: 'm1',
            text: '',
            type: 'regular',
            user_id: 'bob',
            attachments: [
              { type: 'file', asset_url: 'https://cdn.test/a.pdf', title: 'First.pdf' },
              { type: 'file', asset_url: 'https://cdn.test/b.pdf', title: 'Second.pdf' },
            ],
          }}
        />
      </ChatContext.Provider>,
    );
    expect(screen.getByText('First.pdf')).toBeTruthy();
    expect(screen.queryByText('Second.pdf')).toBeNull();
  });
});
