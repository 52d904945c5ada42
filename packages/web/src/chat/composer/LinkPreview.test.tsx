// @vitest-environment jsdom
import { createRef } from 'react';
import type { ChatClient } from '@caseroom/sdk';
import { connectFakeClient, FakeChatServer } from '@caseroom/sdk/testing';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChannelHandle } from '../sdkTypes';
import { Composer } from './Composer';

const PAGE = 'https://news.example.com/housing';
let server: FakeChatServer;
let client: ChatClient;
let channel: ChannelHandle;

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  server = new FakeChatServer();
  server.createChannel('messaging', 'general', { members: ['amy'] }, 'amy').urlEnrichment = true;
  server.linkPreviews.set(PAGE, { title: 'Housing benefit', text: 'How to apply', author_name: 'News' });
  client = await connectFakeClient(server, { id: 'amy', name: 'Amy' });
  channel = client.channel('messaging', 'general');
  await channel.watch();
});

afterEach(async () => {
  cleanup();
  await client.disconnectUser();
  vi.useRealTimers();
});

function typeIn(text: string) {
  render(<Composer composer={channel.composer} mode="main" inputRef={createRef()} />);
  const input = screen.getByRole('textbox', { name: 'Message' });
  fireEvent.change(input, { target: { value: text, selectionStart: text.length } });
}

describe('composer link preview (chat-spec §4)', () => {
  it('shows the card above the input after 1,500 ms, and the dismiss button removes it', async () => {
    typeIn(`read ${PAGE}`);
    expect(screen.queryByRole('list', { name: 'Link previews' })).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1500));
    const list = screen.getByRole('list', { name: 'Link previews' });
    expect(list.textContent).toContain('Housing benefit');
    expect(list.textContent).toContain('News');
    fireEvent.click(screen.getByRole('button', { name: `Remove the preview of ${PAGE}` }));
    expect(screen.queryByRole('list', { name: 'Link previews' })).toBeNull();
  });

  it('shows nothing for a link without a preview (failed is silent)', async () => {
    typeIn('read https://nothing.example.com/');
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(screen.queryByRole('list', { name: 'Link previews' })).toBeNull();
    expect(channel.composer.linkPreviews.state.getSnapshot().previews[0]?.status).toBe('failed');
  });
});
