// @vitest-environment jsdom
import { DEFAULT_CHANNEL_TYPE_SETTINGS, type Channel, type ChannelMember } from '@caseroom/protocol';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChannelHeader } from './ChannelHeader';

const TEAM = 'org1';
afterEach(cleanup);

function member(
  id: string,
  name: string,
  extra: { clientOf?: string[]; guestOf?: string[]; image?: string } = {},
) {
  return {
    user_id: id,
    user: { id, name, ...extra },
    channel_role: 'channel_member',
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
  } satisfies ChannelMember;
}

function channel(extra: Record<string, unknown> = {}): Channel {
  return {
    id: 'c1',
    type: 'messaging',
    cid: 'messaging:c1',
    team: TEAM,
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    member_count: 2,
    frozen: false,
    config: {
      ...DEFAULT_CHANNEL_TYPE_SETTINGS,
      name: 'messaging',
      commands: [],
      url_enrichment: false,
    },
    own_capabilities: [],
    ...extra,
  };
}

const maria = member('maria', 'Maria Lopez');
const chloe = member('chloe', 'Chloe Bennett', { clientOf: [TEAM] });
const gary = member('gary', 'Gary Ford', { guestOf: [TEAM] });
const noah = member('noah', 'Noah Kim');
const alex = member('admin', 'Alex Morgan');
const zoe = member('zoe', 'Zoe Park');

function renderHeader(props: {
  members: ChannelMember[];
  viewerId?: string;
  channel?: Channel;
  onClose?: () => void;
}) {
  return render(
    <ChannelHeader
      channel={props.channel ?? channel()}
      members={props.members}
      viewerId={props.viewerId ?? 'maria'}
      viewer={undefined}
      title="Chat"
      titleId="t"
      onClose={props.onClose}
      threadsOpen={false}
      unreadThreads={0}
      onToggleThreads={() => undefined}
    />,
  );
}

describe('ChannelHeader (product-spec §2)', () => {
  it('shows the other member’s initial in a two-member channel, a photo when there is one', () => {
    renderHeader({ members: [maria, chloe] });
    expect(screen.getByTestId('avatar-initials').textContent).toBe('CB');
    cleanup();
    const { container } = renderHeader({ members: [maria, member('x', 'Xi', { image: 'https://x/p.png' })] });
    expect(container.querySelector('img.avatar')?.getAttribute('src')).toBe('https://x/p.png');
  });

  it('shows a people icon in a group, then first names: clients bold, guests italic, sorted', () => {
    const { container } = renderHeader({ members: [maria, noah, gary, chloe] });
    expect(screen.queryByTestId('avatar-initials')).toBeNull();
    expect(container.querySelector('.avatar-icon svg')).not.toBeNull();
    const names = container.querySelector('.channel-participants')!;
    expect(
      [...names.querySelectorAll('[data-role]')].map((n) => [n.tagName, n.firstChild?.textContent]),
    ).toEqual([
      ['STRONG', 'Chloe'],
      ['EM', 'Gary'],
      ['SPAN', 'Noah'],
    ]);
    expect(screen.queryByRole('button', { name: /more/ })).toBeNull();
  });

  it("opens 'All Participants' from '+ N more' and closes it by button and by a click outside", () => {
    renderHeader({ members: [maria, noah, gary, chloe, alex, zoe] });
    const more = screen.getByRole('button', { name: '+ 2 more' });
    fireEvent.click(more);
    const popup = screen.getByRole('dialog', { name: 'All Participants' });
    expect(
      within(popup)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('.participant')?.textContent),
    ).toEqual(['Chloe Bennett (client)', 'Gary Ford (guest)', 'Alex Morgan', 'Noah Kim', 'Zoe Park']);
    fireEvent.click(within(popup).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.click(more);
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.pointerDown(document.body);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens the participants on mouse hover', () => {
    renderHeader({ members: [maria, noah, gary, chloe, alex] });
    fireEvent.pointerEnter(screen.getByRole('button', { name: '+ 1 more' }), { pointerType: 'mouse' });
    expect(screen.getByRole('dialog', { name: 'All Participants' })).toBeTruthy();
  });

  it('shows the role badge by the viewer’s rules', () => {
    const group = channel({ hasClient: true, hasGuest: true });
    renderHeader({ members: [maria, chloe, gary], channel: group });
    expect(screen.getByTestId('role-badge').textContent).toBe('Guest');
    cleanup();
    renderHeader({ members: [maria, chloe, gary], channel: group, viewerId: 'chloe' });
    expect(screen.getByTestId('role-badge').textContent).toBe('Client & Guest');
    cleanup();
    renderHeader({ members: [maria, chloe], channel: channel({ hasClient: true, hasGuest: false }) });
    expect(screen.queryByTestId('role-badge')).toBeNull();
    cleanup();
    renderHeader({ members: [maria, chloe], channel: channel({ hasClient: true }), viewerId: 'chloe' });
    expect(screen.getByTestId('role-badge').textContent).toBe('Client');
  });

  it("shows 'Archived' when frozen and the close icon only in popup mode", () => {
    const onClose = vi.fn();
    renderHeader({ members: [maria, chloe], channel: channel({ frozen: true }), onClose });
    expect(screen.getByText('Archived')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close chat' }));
    expect(onClose).toHaveBeenCalled();
    cleanup();
    renderHeader({ members: [maria, chloe] });
    expect(screen.queryByText('Archived')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Close chat' })).toBeNull();
  });
});
