import { ChatStartData, type Contact } from '@caseroom/protocol';
import type { ChatUserInput } from '../../chat/server-api.js';
import { loadContacts } from '../contacts/queries.js';
import { ProductError } from '../errors.js';
import { chatUserFor, teamMemberIds } from '../users/chat-user.js';
import { authorizeCaseplan } from './authorize.js';
import { defineCallable } from './registry.js';

const NOT_ACTIVE = 'Cannot start chat with user that is not active in caseplan';

function intersect(lists: string[][]): string[] {
  const [first, ...rest] = lists;
  return (first ?? []).filter((x) => rest.every((l) => l.includes(x)));
}

/**
 * The channel team (product-spec §5): the one organization all contacts share; if none, the one case-plan
 * organization they share; otherwise 'Failed getting organization id for contacts'. When the chat starts from
 * a case plan, its organization settles a tie.
 */
export function teamFor(contacts: Contact[], caseplanOrganization?: string): string {
  const pick = (shared: string[]): string | undefined => {
    if (shared.length === 1) return shared[0];
    if (caseplanOrganization && shared.includes(caseplanOrganization)) return caseplanOrganization;
    return undefined;
  };
  const orgs = intersect(contacts.map((c) => c.organizations));
  const team = orgs.length ? pick(orgs) : pick(intersect(contacts.map((c) => c.caseplanOrganizations)));
  if (!team) throw new ProductError('failed-precondition', 'Failed getting organization id for contacts');
  return team;
}

/** `chat-startChat`: a one-to-one or group chat between contacts (product-spec §5-§6, §8 "Chat start errors"). */
export function startChatCallable() {
  return defineCallable({
    name: 'chat-startChat',
    data: ChatStartData,
    authorize: async ({ caller, q }, d) => {
      if (!d.caseplanId) return;
      try {
        const { record } = await authorizeCaseplan(q, caller.uid, 'caseplans.participate', d.caseplanId);
        if (record.closed) throw new ProductError('failed-precondition', 'Caseplan is closed');
      } catch (err) {
        // Inside the organization but not active on the plan: the spec's own words.
        if (err instanceof ProductError && err.status === 'permission-denied') {
          throw new ProductError('permission-denied', NOT_ACTIVE);
        }
        throw err;
      }
    },
    // The chat users, the channel and its moderators are written in the callable's transaction (all or nothing);
    // their events go out after its commit.
    action: async ({ caller, q, chat }, d) => {
      if (d.contacts.length === 0)
        throw new ProductError('invalid-argument', 'No contacts provided to start chat');
      const members = [...new Set(d.contacts)];
      if (!members.includes(caller.uid))
        throw new ProductError('invalid-argument', 'Must include current user in chat');
      if (members.length < 2)
        throw new ProductError('invalid-argument', 'A chat needs at least 2 distinct members');

      let caseplanOrganization: string | undefined;
      if (d.caseplanId) {
        const { rows } = await q.query<{ user_id: string; organization_id: string }>(
          `SELECT cu.user_id, c.organization_id FROM caseplan_users cu JOIN caseplans c ON c.id = cu.caseplan_id
            WHERE cu.caseplan_id = $1 AND cu.active AND cu.user_id = ANY($2)`,
          [d.caseplanId, members],
        );
        if (rows.length !== members.length) throw new ProductError('failed-precondition', NOT_ACTIVE);
        caseplanOrganization = rows[0]?.organization_id;
      }
      const contacts = await loadContacts(q, caller.uid, members);
      for (const id of members) {
        if (!contacts.some((c) => c.id === id)) {
          throw new ProductError('not-found', `Contact not found for userId: ${id}`);
        }
      }
      const team = teamFor(contacts, caseplanOrganization);
      const caseplans = d.caseplanId ? [d.caseplanId] : intersect(contacts.map((c) => c.caseplans));
      const chatUsers: ChatUserInput[] = [];
      for (const id of members) {
        const user = await chatUserFor(q, id);
        if (user) chatUsers.push(user);
      }
      const has = (field: 'clientOf' | 'guestOf') =>
        chatUsers.some((u) => Array.isArray(u[field]) && (u[field] as string[]).includes(team));
      if (!team) throw new ProductError('failed-precondition', 'Channel does not have an organization id');
      // The distinct chat of exactly these members in this team, created by one of them; else a fresh one created
      // by the caller (chat's channel-create: a channel someone else made at that id is never handed back).
      await chat.upsertUsers(chatUsers);
      const channel = await chat.getOrCreateChannel(
        'messaging',
        undefined,
        {
          members,
          team,
          caseplans,
          organizations: [team],
          hasClient: has('clientOf'),
          hasGuest: has('guestOf'),
          ...(d.name ? { name: d.name } : {}),
        },
        caller.uid,
      );
      // Team members moderate product chats (a team-member creator too: moderators hold the owner's rights).
      const moderators = teamMemberIds(chatUsers, team).filter((id) => members.includes(id));
      if (moderators.length) await chat.addModerators(channel.cid, moderators);
      return { cid: channel.cid, id: channel.id, type: channel.type };
    },
  });
}
