// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createPushNotifications,
  PUSH_TOAST_MS,
  pushNotifications,
  type PushNotifications,
} from './notifications';
import { PushToast } from './PushToast';

function Where() {
  const { pathname } = useLocation();
  return <span data-testid="where">{pathname}</span>;
}

let notifications: PushNotifications;

function renderAt(path: string, openCid?: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <PushToast openCid={openCid} notifications={notifications} />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

const where = () => screen.getByTestId('where').textContent;

beforeEach(() => {
  vi.useFakeTimers();
  notifications = createPushNotifications();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('PushToast', () => {
  it('shows a push for 5000 ms with Dismiss and View', () => {
    renderAt('/app');
    act(() => notifications.notify({ title: 'Anna', body: 'Hello there', channelId: 'c1' }));
    expect(screen.getByRole('status').textContent).toContain('Anna');
    expect(screen.getByRole('status').textContent).toContain('Hello there');
    expect(screen.getByRole('button', { name: 'Dismiss' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'View' })).toBeTruthy();
    act(() => vi.advanceTimersByTime(PUSH_TOAST_MS - 1));
    expect(screen.queryByRole('status')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('status')).toBeNull();
    expect(PUSH_TOAST_MS).toBe(5000);
  });

  it('Dismiss closes it where the user is', () => {
    renderAt('/app/caseplans');
    act(() => notifications.notify({ title: 'Anna', channelId: 'c1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('status')).toBeNull();
    expect(where()).toBe('/app/caseplans');
  });

  it('View opens the chat channel of a chat push', () => {
    renderAt('/app');
    act(() => notifications.notify({ title: 'Anna', channelId: 'case-42' }));
    fireEvent.click(screen.getByRole('button', { name: 'View' }));
    expect(where()).toBe('/app/chat/messaging/case-42');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('View goes to the route in the data (an app path only)', () => {
    renderAt('/app');
    act(() => notifications.notify({ title: 'Case plan', route: '/app/caseplans/cp1', channelId: 'c1' }));
    fireEvent.click(screen.getByRole('button', { name: 'View' }));
    expect(where()).toBe('/app/caseplans/cp1');

    act(() => notifications.notify({ title: 'Elsewhere', route: '//evil.example/x' }));
    expect(screen.queryByRole('button', { name: 'View' })).toBeNull();
  });

  it('is not shown while that chat is open (routed or in the popup); other chats still show', () => {
    renderAt('/app/chat/messaging/c1', 'messaging:c2');
    act(() => notifications.notify({ title: 'Routed chat', channelId: 'c1' }));
    expect(screen.queryByRole('status')).toBeNull();
    act(() => notifications.notify({ title: 'Popup chat', channelId: 'c2' }));
    expect(screen.queryByRole('status')).toBeNull();
    act(() => notifications.notify({ title: 'Other chat', channelId: 'c3' }));
    expect(screen.getByRole('status').textContent).toContain('Other chat');
  });

  it('opens a tapped push at once', () => {
    renderAt('/app');
    act(() => notifications.open({ channelId: 'c9' }));
    expect(where()).toBe('/app/chat/messaging/c9');
  });

  it('is what the native shell reaches through window.CaseroomPush', () => {
    expect(window.CaseroomPush?.notify).toBe(pushNotifications.notify);
    act(() => window.CaseroomPush!.notify({ title: 'From native' }));
    expect(pushNotifications.getShown()?.data.title).toBe('From native');
  });
});
