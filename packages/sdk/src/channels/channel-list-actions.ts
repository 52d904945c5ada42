import type { ChannelMember } from '@caseroom/protocol';
import type { ClientContext } from '../client/context.js';
import type { StateStore } from '../stores/store.js';
import { ChannelMessageActions } from './channel-message-actions.js';
import type { ChannelSnapshot } from './channel-state.js';

/** How long a mute lasts: until unmuted (no expiration) or `expiration` milliseconds. */
export interface MuteOptions {
  /** Milliseconds from now; the server ends the mute by itself then. */
  expiration?: number;
}

/** The viewer's mute of a channel as the client holds it. */
export interface MuteStatus {
  muted: boolean;
  /** When a timed mute ends (ISO), if it is timed. */
  expiresAt?: string;
}

/**
 * The viewer's own list state of a channel (chat-spec §3 Member `pinned_at`, `archived_at`; §4 Channel hidden or
 * visible, archived or not, pinned or not; §7 `POST /moderation/mute/channel`, `POST .../hide`, `.../show`,
 * `PATCH .../member/{userId}`). Each call changes the state once the server agreed, and the server's events
 * (`notification.channel_mutes_updated`, `channel.hidden`/`channel.visible`, `member.updated`) say the same to
 * the user's other connections. `ChatChannel` extends this.
 */
export abstract class ChannelListActions extends ChannelMessageActions {
  protected abstract readonly store: StateStore<ChannelSnapshot>;
  protected abstract path(): string;
  abstract get cid(): string | undefined;

  constructor(ctx: ClientContext) {
    super(ctx);
  }

  /** Mutes the channel for the connected user: its messages leave the user's unread totals. */
  async mute(options: MuteOptions = {}): Promise<void> {
    const answer = await this.ctx.api.post<{ channel_mutes?: { expires?: string }[] }>(
      '/moderation/mute/channel',
      { channel_cid: this.requireCid(), ...(options.expiration ? { expiration: options.expiration } : {}) },
    );
    this.setMuted(true, answer.channel_mutes?.[0]?.expires);
  }

  async unmute(): Promise<void> {
    await this.ctx.api.post('/moderation/unmute/channel', { channel_cid: this.requireCid() });
    this.setMuted(false);
  }

  /** Whether the connected user muted this channel (a timed mute past its end is not muted). */
  muteStatus(): MuteStatus {
    const state = this.store.getSnapshot();
    const expiresAt = state.muteExpiresAt;
    const muted = state.channel?.muted === true && (!expiresAt || Date.parse(expiresAt) > Date.now());
    return { muted, ...(muted && expiresAt ? { expiresAt } : {}) };
  }

  /**
   * Hides the channel from the user's lists until a new message arrives (chat-spec §4); `clearHistory` also
   * hides the messages so far from them.
   */
  async hide(options: { clearHistory?: boolean } = {}): Promise<void> {
    await this.ctx.api.post(`${this.path()}/hide`, options.clearHistory ? { clear_history: true } : {});
    this.applyLocally('channel.hidden');
  }

  /** Shows a hidden channel again. */
  async show(): Promise<void> {
    await this.ctx.api.post(`${this.path()}/show`, {});
    this.applyLocally('channel.visible');
  }

  /** Pins the channel for the connected user (`membership.pinned_at`); lists sorted by `pinned_at` put it first. */
  pin(): Promise<ChannelMember> {
    return this.updateMembership({ set: { pinned: true } });
  }

  unpin(): Promise<ChannelMember> {
    return this.updateMembership({ unset: ['pinned'] });
  }

  /** Archives the channel for the connected user (`membership.archived_at`); `archived: false` lists leave it. */
  archive(): Promise<ChannelMember> {
    return this.updateMembership({ set: { archived: true } });
  }

  unarchive(): Promise<ChannelMember> {
    return this.updateMembership({ unset: ['archived'] });
  }

  private async updateMembership(change: {
    set?: Record<string, boolean>;
    unset?: string[];
  }): Promise<ChannelMember> {
    const me = this.ctx.currentUser()?.id;
    if (!me) throw new Error('Call connectUser before changing a membership');
    const answer = await this.ctx.api.request<{ channel_member: ChannelMember }>(
      'PATCH',
      `${this.path()}/member/${encodeURIComponent(me)}`,
      { body: { set: change.set ?? {}, unset: change.unset ?? [] } },
    );
    const member = answer.channel_member;
    // As the server's `member.updated` to the user's other connections: the channel's membership and the lists.
    this.ctx.applyLocally({
      type: 'member.updated',
      cid: this.requireCid(),
      member,
      created_at: member.updated_at,
    });
    return member;
  }

  /** The viewer's mute, applied as a `channel.updated` carrying it: lists filtered by `muted` re-check. */
  private setMuted(muted: boolean, expiresAt?: string): void {
    const state = this.store.getSnapshot();
    if (!state.channel) return;
    const next: ChannelSnapshot = { ...state };
    if (muted && expiresAt) next.muteExpiresAt = expiresAt;
    else delete next.muteExpiresAt;
    this.store.set(next);
    const channel = { ...state.channel, muted };
    this.ctx.applyLocally({ type: 'channel.updated', cid: channel.cid, channel, created_at: now() });
  }

  private applyLocally(type: 'channel.hidden' | 'channel.visible'): void {
    this.ctx.applyLocally({ type, cid: this.requireCid(), created_at: now() });
  }

  private requireCid(): string {
    const cid = this.cid;
    if (!cid) throw new Error('Call watch() first: the channel id is not known yet');
    return cid;
  }
}

const now = () => new Date().toISOString();
