import type { ChannelTypeRule, MessageRemovedHook } from '../chat/server-api.js';
import type { Queryable } from '../platform/db.js';
import { recordAudit } from './audit/record.js';

/**
 * The product's chat channel type (product-spec §7: chats are channels of type `messaging`, with a team) and the
 * other built-in type, which the product does not use: users may create channels of neither.
 */
export const PRODUCT_CHAT_TYPE = 'messaging';
const LOCKED_TYPES = [PRODUCT_CHAT_TYPE, 'team'] as const;

/** Priority 999 with Deny: wins over every rule, "Allow all" for chat admins included (Deny wins a tie). */
const TOP = 999;

/**
 * The product's rules on chat (issue 13 §2, §3), installed at every start:
 * - chats exist only through the product (a channel needs an organization, product-spec §5): nobody creates a
 *   channel of these types through the chat API, nor adds, invites or re-roles members there (the product does it
 *   as the server); so nobody who knows a user id can put a channel and a message into that user's list;
 * - in the product's chats nobody edits another person's message; moderators remove instead (visibly, kept in the
 *   message's history and in the audit log).
 * Other channel types (made by a chat admin) keep chat's built-in rules, `update-any-message` included.
 */
export const PRODUCT_CHAT_RULES: readonly ChannelTypeRule[] = [
  ...LOCKED_TYPES.flatMap((type): ChannelTypeRule[] => [
    {
      id: `product-${type}-create`,
      name: 'Chats are created through the product',
      action: 'Deny',
      priority: TOP,
      roles: ['*'],
      resources: ['create-channel'],
      channelType: type,
    },
    {
      id: `product-${type}-members`,
      name: 'Chat members are changed through the product',
      action: 'Deny',
      priority: TOP,
      roles: ['*'],
      resources: ['update-channel-members'],
      channelType: type,
    },
  ]),
  {
    id: `product-${PRODUCT_CHAT_TYPE}-no-edit-others`,
    name: "Nobody edits another person's message",
    action: 'Deny',
    priority: TOP,
    roles: ['*'],
    resources: ['update-any-message'],
    channelType: PRODUCT_CHAT_TYPE,
  },
];

/** `POST /chat/guest` may not claim the id of an account of the product. */
export async function isProductUserId(q: Queryable, id: string): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM "user" WHERE id = $1', [id]);
  return rows.length > 0;
}

/**
 * Audits a moderator's removal of someone else's message in a product chat (in the removal's transaction). The
 * entry names the chat, the author and the moderator, never the removed words: the audit log is read by the
 * organization's admins, who need not be members of the chat.
 */
export async function auditMessageRemoval(q: Queryable, event: MessageRemovedHook): Promise<void> {
  const team = event.channel.team;
  if (!team) return;
  const caseplans = event.channel.custom.caseplans;
  const caseplanId =
    Array.isArray(caseplans) && caseplans.length === 1 && typeof caseplans[0] === 'string'
      ? caseplans[0]
      : null;
  await recordAudit(q, {
    organizationId: team,
    caseplanId,
    actorId: event.removedById,
    action: 'chat.message.remove',
    entity: 'message',
    entityId: event.messageId,
    before: { cid: event.cid, authorId: event.authorId },
    after: { removed: true },
  });
}
