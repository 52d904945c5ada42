// @vitest-environment jsdom
import type { ChatClient } from '@caseroom/sdk';
import { connectFakeClient, FakeChatServer } from '@caseroom/sdk/testing';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Toaster } from '../ui/toast';
import { ChannelList } from './ChannelList';
import { ChannelMenu } from './header/ChannelMenu';

let server: FakeChatServer;
let client: ChatClient;

beforeEach(async () => {
  server = new FakeChatServer();
  server.upsertUser({ id: 'bob', name: 'Bob Stone' });
  server.upsertUser({ id: 'cara', name: 'Cara Lind' });
  server.createChannel('messaging', 'bob', { members: ['amy', 'bob'] }, 'amy');
  server.createChannel('messaging', 'cara', { members: ['amy', 'cara'] }, 'amy');
  server.sendMessage('messaging:bob', 'bob', { text: 'from bob' });
  server.sendMessage('messaging:cara', 'cara', { text: 'from cara' });
  client = await connectFakeClient(server, { id: 'amy', name: 'Amy' });
});

afterEach(async () => {
  cleanup();
  await client.disconnectUser();
});

const names = () =>
  within(screen.getByRole('navigation', { name: 'Chats' }))
    .getAllByRole('link')
    .map((l) => l.querySelector('.channel-link-name')?.textContent);

function renderList() {
  render(
    <MemoryRouter>
      <ChannelList client={client} userId="amy" caseplan={null} />
      <Toaster />
    </MemoryRouter>,
  );
}

async function menuAction(cid: string, item: string) {
  const [type = '', id = ''] = cid.split(':');
  const channel = client.channel(type, id);
  await channel.watch();
  const data = channel.state.getSnapshot().channel;
  if (!data) throw new Error('not watched');
  const view = render(
    <MemoryRouter>
      <ChannelMenu client={client} channel={data} />
    </MemoryRouter>,
  );
  fireEvent.click(within(view.container).getByRole('button', { name: 'Chat options' }));
  fireEvent.click(screen.getByRole('menuitem', { name: item }));
  view.unmount();
}

describe('ChannelList with list management', { timeout: 30_000 }, () => {
  it('pin moves a chat first with the pin mark; the Pinned filter shows only it', async () => {
    renderList();
    await waitFor(() => expect(names()).toEqual(['Cara Lind', 'Bob Stone']));
    await menuAction('messaging:bob', 'Pin to top');
    await waitFor(() => expect(names()).toEqual(['Bob Stone', 'Cara Lind']));
    expect(screen.getAllByText('Pinned', { selector: '.visually-hidden' })).toHaveLength(1);
    await screen.findByText('Chat pinned to the top of the list.');
    fireEvent.click(screen.getByRole('button', { name: 'Pinned' }));
    await waitFor(() => expect(names()).toEqual(['Bob Stone']));
    expect(screen.getByRole('button', { name: 'Pinned' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('archive takes a chat out of All into Archived; mute shows the icon and the Unread filter leaves it out', async () => {
    renderList();
    await waitFor(() => expect(names()).toEqual(['Cara Lind', 'Bob Stone']));
    await menuAction('messaging:cara', 'Archive');
    await waitFor(() => expect(names()).toEqual(['Bob Stone']));
    fireEvent.click(screen.getByRole('button', { name: 'Archived' }));
    await waitFor(() => expect(names()).toEqual(['Cara Lind']));

    fireEvent.click(screen.getByRole('button', { name: /^All/ }));
    await waitFor(() => expect(names()).toEqual(['Bob Stone']));
    await menuAction('messaging:bob', 'Mute notifications');
    await waitFor(() => expect(screen.getByTestId('muted-icon')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: /^Unread/ }));
    await screen.findByText('No unread chats.');
  });
});
