// @vitest-environment jsdom
import { createRef } from 'react';
import { CAPABILITIES } from '@caseroom/protocol';
import type { ChatClient } from '@caseroom/sdk';
import { connectFakeClient, FakeChatServer } from '@caseroom/sdk/testing';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelHandle } from '../sdkTypes';
import { Composer } from './Composer';

let server: FakeChatServer;
let client: ChatClient;
let channel: ChannelHandle;

beforeEach(async () => {
  server = new FakeChatServer();
  server.upsertUser({ id: 'bob', name: 'Bob Stone' });
  server.upsertUser({ id: 'bella', name: 'Bella Ray' });
  server.createChannel('messaging', 'general', { members: ['amy', 'bob', 'bella'] }, 'amy');
  client = await connectFakeClient(server, { id: 'amy', name: 'Amy' });
  channel = client.channel('messaging', 'general');
  await channel.watch();
});

afterEach(async () => {
  cleanup();
  await client.disconnectUser();
});

function renderComposer(mode: 'main' | 'thread' = 'main') {
  const inputRef = createRef<HTMLTextAreaElement>();
  render(<Composer composer={channel.composer} mode={mode} inputRef={inputRef} />);
  return screen.getByRole('textbox', { name: mode === 'main' ? 'Message' : 'Reply' });
}

function type(input: HTMLElement, text: string) {
  fireEvent.change(input, { target: { value: text, selectionStart: text.length } });
}

describe('Composer (chat-spec §5)', () => {
  it('sends on Enter, not with Shift or while an IME composes', async () => {
    const input = renderComposer();
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toHaveProperty('disabled', true);
    type(input, 'hello there');
    expect(send).toHaveProperty('disabled', false);
    fireEvent.keyDown(input, { key: 'Enter', shiftKey: true });
    fireEvent.keyDown(input, { key: 'Enter', isComposing: true });
    expect(channel.state.getSnapshot().messages).toHaveLength(0);
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() =>
      expect(channel.state.getSnapshot().messages.map((m) => m.text)).toEqual(['hello there']),
    );
    expect((input as HTMLTextAreaElement).value).toBe('');
  });

  it('suggests members after @, moves with the arrows, takes one with Enter, closes on Escape', async () => {
    const input = renderComposer();
    type(input, 'hi @b');
    const list = await screen.findByRole('listbox', { name: 'People to mention' }, { timeout: 2000 });
    await waitFor(() =>
      expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['BRBella Ray', 'BSBob Stone']),
    );
    expect(list.className).toBe('suggestions');
    expect(screen.getAllByRole('option')[0]?.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(screen.getAllByRole('option')[1]?.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect((input as HTMLTextAreaElement).value).toBe('hi @Bob Stone ');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(channel.composer.state.getSnapshot().mentionedUsers.map((u) => u.id)).toEqual(['bob']);

    type(input, 'hi @Bob Stone and @be');
    await screen.findByRole('listbox', {}, { timeout: 2000 });
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it("lists the channel type's commands after /, with arguments and description, and fills `/name `", async () => {
    server.channels.get('messaging:general')!.commands = [
      { name: 'remind', args: '[when] [text]', description: 'Set a reminder' },
      { name: 'mute', args: '[@username]', description: 'Mute a user' },
    ];
    await channel.watch();
    const input = renderComposer();
    type(input, '/');
    const list = await screen.findByRole('listbox', { name: 'Commands' });
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      '/mute [@username]Mute a user',
      '/remind [when] [text]Set a reminder',
    ]);
    expect(list.querySelector('.suggestion-args')?.getAttribute('title')).toBe('Arguments: [@username]');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(options[1]?.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect((input as HTMLTextAreaElement).value).toBe('/remind ');
    expect(screen.queryByRole('listbox')).toBeNull();
    type(input, '/re');
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toHaveLength(1));
  });

  it('shows the quoted message and leaves it with the remove button', async () => {
    server.sendMessage('messaging:general', 'bob', { text: 'quote me' });
    const input = renderComposer();
    await waitFor(() => expect(channel.state.getSnapshot().messages).toHaveLength(1));
    const quoted = channel.state.getSnapshot().messages[0];
    act(() => void channel.composer.setQuoted(quoted));
    expect(screen.getByText('quote me')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove quote' }));
    expect(screen.queryByText('quote me')).toBeNull();
    expect(input).toBeTruthy();
  });

  it("replaces the input with 'You can't send …' without the capability", async () => {
    renderComposer();
    act(() =>
      server.emit('messaging:general', {
        type: 'capabilities.changed',
        cid: 'messaging:general',
        created_at: new Date().toISOString(),
        own_capabilities: CAPABILITIES.filter((c) => c !== 'send-message'),
      }),
    );
    await screen.findByText("You can't send messages in this channel");
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it("says 'You can't send thread replies …' in a thread without send-reply", async () => {
    const parent = await channel.sendMessage({ text: 'parent' });
    const thread = client.threads.thread(parent, channel);
    const inputRef = createRef<HTMLTextAreaElement>();
    render(<Composer composer={thread.composer} mode="thread" inputRef={inputRef} />);
    act(() =>
      server.emit('messaging:general', {
        type: 'capabilities.changed',
        cid: 'messaging:general',
        created_at: new Date().toISOString(),
        own_capabilities: CAPABILITIES.filter((c) => c !== 'send-reply'),
      }),
    );
    await screen.findByText("You can't send thread replies in this channel");
  });

  it('counts down the slow mode with a changed placeholder', async () => {
    const input = renderComposer();
    act(() =>
      server.emit('messaging:general', {
        type: 'channel.updated',
        cid: 'messaging:general',
        created_at: new Date().toISOString(),
        channel: { ...channel.state.getSnapshot().channel!, cooldown: 30 },
      }),
    );
    act(() =>
      server.emit('messaging:general', {
        type: 'capabilities.changed',
        cid: 'messaging:general',
        created_at: new Date().toISOString(),
        own_capabilities: [...CAPABILITIES.filter((c) => c !== 'skip-slow-mode')],
      }),
    );
    type(input, 'slow');
    fireEvent.keyDown(input, { key: 'Enter' });
    const timer = await screen.findByRole('timer');
    expect(Number(timer.textContent)).toBeGreaterThanOrEqual(29);
    expect((input as HTMLTextAreaElement).placeholder).toMatch(/^Slow mode is on: wait \d+s$/);
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
  });
});
