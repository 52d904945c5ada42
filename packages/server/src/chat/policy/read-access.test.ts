import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Db } from '../../platform/db.js';
import { migrate } from '../../platform/migrate.js';
import {
  canReadChannel,
  condHolds,
  listsInviteSql,
  MEMBER_LISTS_INVITE,
  isChannelReadable,
  isHiddenFor,
  isMessageInView,
  isMessageVisible,
  messageInViewSql,
  messageVisibleSql,
  readableChannelSql,
  readerSql,
  readsChannelSql,
  syncEventReadableSql,
  viewCutoff,
} from './read-access.js';

// One table of cases, each checked three ways: the expected answer, the SQL form (run in PGlite against rows
// inserted for the case) and the JS form (against the same rows read back). A rule change that updates only one
// form fails here.

const T0 = new Date('2026-01-01T00:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

interface MemberCase {
  name: string;
  banned?: boolean;
  invited?: boolean;
  accepted?: boolean;
  rejected?: boolean;
  /** No member row at all. */
  none?: boolean;
  deletedChannel?: boolean;
  reads: boolean;
  /** Sees the channel in their list when asking for invites (default: when they read it). */
  listsInvite?: boolean;
}

const MEMBER_CASES: MemberCase[] = [
  { name: 'member', reads: true },
  { name: 'banned member', banned: true, reads: false },
  { name: 'pending invitee', invited: true, reads: false, listsInvite: true },
  { name: 'rejected invitee', invited: true, rejected: true, reads: false, listsInvite: true },
  { name: 'banned pending invitee', invited: true, banned: true, reads: false },
  { name: 'accepted invitee', invited: true, accepted: true, reads: true },
  { name: 'banned accepted invitee', invited: true, accepted: true, banned: true, reads: false },
  { name: 'not a member', none: true, reads: false },
  { name: 'member of a deleted channel', deletedChannel: true, reads: false },
];

interface MessageCase {
  name: string;
  hidden?: boolean;
  hiddenByOther?: boolean;
  /** Minutes after T0 the message was written (default 10). */
  at?: number;
  truncatedAt?: number;
  clearedAt?: number;
  visible: boolean;
}

const MESSAGE_CASES: MessageCase[] = [
  { name: 'plain message', visible: true },
  { name: 'hidden for the viewer (delete for me)', hidden: true, visible: false },
  { name: 'hidden by someone else', hiddenByOther: true, visible: true },
  { name: 'before the truncation', truncatedAt: 20, visible: false },
  { name: 'after the truncation', truncatedAt: 5, visible: true },
  { name: 'before the viewer cleared the history', clearedAt: 20, visible: false },
  { name: 'after the viewer cleared the history', clearedAt: 5, visible: true },
  { name: 'at the cut-off exactly', truncatedAt: 10, visible: false },
];

interface EventCase {
  name: string;
  joined: number;
  event: number;
  reader?: boolean;
  gets: boolean;
}

const EVENT_CASES: EventCase[] = [
  { name: 'event after joining', joined: 0, event: 10, gets: true },
  { name: 'event in the joining instant', joined: 10, event: 10, gets: true },
  { name: 'event before joining', joined: 20, event: 10, gets: false },
  { name: 'event after joining, pending invitee', joined: 0, event: 10, reader: false, gets: false },
];

describe('the read rule: SQL and JS agree', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openPglite(undefined);
    await migrate(db);
    await db.query(`INSERT INTO chat_users (id) VALUES ('viewer'), ('other')`);
  }, 60_000);
  afterAll(() => db.close());

  it('members: who reads a channel', async () => {
    for (const [i, k] of MEMBER_CASES.entries()) {
      const cid = `messaging:m${i}`;
      await db.query(
        `INSERT INTO chat_channels (cid, type, id, deleted_at) VALUES ($1, 'messaging', $2, $3)`,
        [cid, `m${i}`, k.deletedChannel ? T0 : null],
      );
      if (!k.none) {
        await db.query(
          `INSERT INTO chat_members (cid, user_id, banned, invited, invite_accepted_at, invite_rejected_at)
           VALUES ($1, 'viewer', $2, $3, $4, $5)`,
          [cid, !!k.banned, !!k.invited, k.accepted ? T0 : null, k.rejected ? T0 : null],
        );
      }
      const sql = await db.query<{
        reads: boolean;
        exists_reads: boolean;
        bare: boolean | null;
        lists: boolean;
      }>(
        `SELECT EXISTS (SELECT 1 FROM chat_channels c JOIN chat_members m ON m.cid = c.cid
                         WHERE c.cid = $1 AND m.user_id = 'viewer' AND ${readableChannelSql('c', 'm')}) AS reads,
                ${readsChannelSql('$1', "'viewer'")} AS exists_reads,
                (SELECT ${readerSql()} FROM chat_members WHERE cid = $1 AND user_id = 'viewer') AS bare,
                EXISTS (SELECT 1 FROM chat_members m WHERE m.cid = $1 AND m.user_id = 'viewer'
                         AND ${listsInviteSql('m')}) AS lists`,
        [cid],
      );
      const { rows: members } = await db.query<never>(
        `SELECT * FROM chat_members WHERE cid = $1 AND user_id = 'viewer'`,
        [cid],
      );
      const { rows: channels } = await db.query<{ deleted_at: Date | null }>(
        'SELECT deleted_at FROM chat_channels WHERE cid = $1',
        [cid],
      );
      const js = canReadChannel({ member: members[0] }) && isChannelReadable(channels[0]!);
      expect({ case: k.name, sql: sql.rows[0]!.reads, js }).toEqual({
        case: k.name,
        sql: k.reads,
        js: k.reads,
      });
      // The member condition alone (no channel): the same as the JS member predicate.
      const memberOnly = canReadChannel({ member: members[0] });
      expect({ case: k.name, exists: sql.rows[0]!.exists_reads, bare: sql.rows[0]!.bare ?? false }).toEqual({
        case: k.name,
        exists: memberOnly,
        bare: memberOnly,
      });
      const lists = members[0] !== undefined && condHolds(MEMBER_LISTS_INVITE, { member: members[0] });
      const expected = k.listsInvite ?? (k.reads || (!!k.deletedChannel && memberOnly));
      expect({ case: k.name, sql: sql.rows[0]!.lists, js: lists }).toEqual({
        case: k.name,
        sql: expected,
        js: expected,
      });
    }
  });

  it('messages: what a reader sees', async () => {
    for (const [i, k] of MESSAGE_CASES.entries()) {
      const cid = `messaging:x${i}`;
      await db.query(
        `INSERT INTO chat_channels (cid, type, id, truncated_at) VALUES ($1, 'messaging', $2, $3)`,
        [cid, `x${i}`, k.truncatedAt === undefined ? null : at(k.truncatedAt)],
      );
      await db.query(
        `INSERT INTO chat_members (cid, user_id, history_cleared_at) VALUES ($1, 'viewer', $2)`,
        [cid, k.clearedAt === undefined ? null : at(k.clearedAt)],
      );
      const id = `msg-${i}`;
      await db.query(
        `INSERT INTO chat_messages (id, seq, cid, user_id, created_at) VALUES ($1, 1, $2, 'other', $3)`,
        [id, cid, at(k.at ?? 10)],
      );
      if (k.hidden) await db.query(`INSERT INTO chat_message_hidden VALUES ($1, 'viewer')`, [id]);
      if (k.hiddenByOther) await db.query(`INSERT INTO chat_message_hidden VALUES ($1, 'other')`, [id]);
      const sql = await db.query<{ visible: boolean }>(
        `SELECT ${messageVisibleSql({ message: 'x', member: 'm', channel: 'c', viewer: '$2' })} AS visible
           FROM chat_messages x JOIN chat_channels c ON c.cid = x.cid
           JOIN chat_members m ON m.cid = x.cid AND m.user_id = $2 WHERE x.id = $1`,
        [id, 'viewer'],
      );
      const msg = (
        await db.query<{ id: string; created_at: Date }>('SELECT * FROM chat_messages WHERE id = $1', [id])
      ).rows[0]!;
      const channel = (
        await db.query<{ truncated_at: Date | null }>('SELECT * FROM chat_channels WHERE cid = $1', [cid])
      ).rows[0]!;
      const member = (
        await db.query<{ history_cleared_at: Date | null }>(
          `SELECT * FROM chat_members WHERE cid = $1 AND user_id = 'viewer'`,
          [cid],
        )
      ).rows[0];
      const hidden = new Set(
        (
          await db.query<{ message_id: string }>(
            `SELECT message_id FROM chat_message_hidden WHERE user_id = 'viewer'`,
          )
        ).rows.map((r) => r.message_id),
      );
      const js = isMessageVisible(msg, { userId: 'viewer', member, channel, hidden });
      // The view alone (no hidden list): SQL, JS and the cut-off read off the same definition agree.
      const inView = await db.query<{ v: boolean }>(
        `SELECT ${messageInViewSql({ message: 'x', member: 'm', channel: 'c' })} AS v
           FROM chat_messages x JOIN chat_channels c ON c.cid = x.cid
           JOIN chat_members m ON m.cid = x.cid AND m.user_id = 'viewer' WHERE x.id = $1`,
        [id],
      );
      const cut = viewCutoff({ member, channel });
      expect({ case: k.name, sql: inView.rows[0]!.v, cut: cut === null || msg.created_at > cut }).toEqual({
        case: k.name,
        sql: isMessageInView(msg, { member, channel }),
        cut: isMessageInView(msg, { member, channel }),
      });
      expect(isHiddenFor(id, 'viewer', hidden)).toBe(!!k.hidden);
      expect({ case: k.name, sql: sql.rows[0]!.visible, js }).toEqual({
        case: k.name,
        sql: k.visible,
        js: k.visible,
      });
    }
  });

  it('sync: events a member gets', async () => {
    for (const [i, k] of EVENT_CASES.entries()) {
      const cid = `messaging:e${i}`;
      await db.query(`INSERT INTO chat_channels (cid, type, id) VALUES ($1, 'messaging', $2)`, [
        cid,
        `e${i}`,
      ]);
      await db.query(
        `INSERT INTO chat_members (cid, user_id, invited, created_at) VALUES ($1, 'viewer', $2, $3)`,
        [cid, k.reader === false, at(k.joined)],
      );
      const { rows } = await db.query<{ id: number }>(
        `INSERT INTO chat_events (cid, seq, type, payload, created_at) VALUES ($1, 1, 'message.new', '{}', $2) RETURNING id`,
        [cid, at(k.event)],
      );
      const sql = await db.query<{ gets: boolean }>(
        `SELECT ${syncEventReadableSql('e', '$2')} AS gets FROM chat_events e WHERE e.id = $1`,
        [rows[0]!.id, 'viewer'],
      );
      expect({ case: k.name, gets: sql.rows[0]!.gets }).toEqual({ case: k.name, gets: k.gets });
    }
  });
});
