import { z } from 'zod';
import type { ChatServerApi } from '../../chat/server-api.js';
import { defineCallable } from '../callables/registry.js';
import { ProductError } from '../errors.js';
import { chatUserFor } from './chat-user.js';
import { ensureProfile, hasUserRecord } from './profiles.js';
import { createUser, registerDevice, unregisterDevice, updateLastLogin, updateUser } from './records.js';

/** An account is new when its sign-in came less than this after its creation (product-spec §4, §9). */
export const NEW_ACCOUNT_THRESHOLD_MS = 1000;

const Timezone = z
  .string()
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'Unknown time zone');

const UpdateData = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    timezone: Timezone.nullable().optional(),
    language: z
      .string()
      .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/)
      .nullable()
      .optional(),
  })
  .strict();

const DeviceData = z.object({
  id: z.string().min(1).max(200),
  token: z.string().min(1).max(4096),
  name: z.string().max(200).default(''),
  osVersion: z.string().max(100).default(''),
  model: z.string().max(200).default(''),
  platform: z.string().max(50).default(''),
});

const CompleteData = z.object({ mode: z.enum(['sign-in', 'sign-up']) });

/** Users callables: `users-update`, `users-registerDevice`, `users-unregisterDevice`, `users-completeSignIn`. */
export function userCallables(chat: ChatServerApi) {
  const syncChatUser = async (uid: string, q: Parameters<typeof chatUserFor>[0]) => chatUserFor(q, uid);

  const update = defineCallable({
    name: 'users-update',
    data: UpdateData,
    authorize: async () => undefined, // everyone edits their own record, and only that
    action: async ({ caller, q, chat: chatInTx }, data) => {
      if (!(await updateUser(q, caller.uid, data))) throw new ProductError('not-found', 'User id not found');
      // The chat user carries the same name and image, written in the same transaction.
      const user = await syncChatUser(caller.uid, q);
      if (user) await chatInTx.upsertUsers([user]);
      return null;
    },
  });

  const register = defineCallable({
    name: 'users-registerDevice',
    data: DeviceData,
    authorize: async () => undefined,
    action: async ({ caller, q }, { id, ...device }) => {
      await registerDevice(q, caller.uid, id, device);
      return null;
    },
  });

  const unregister = defineCallable({
    name: 'users-unregisterDevice',
    data: z.object({ id: z.string().min(1).max(200) }),
    authorize: async () => undefined,
    action: async ({ caller, q }, { id }) => {
      await unregisterDevice(q, caller.uid, id);
      return null;
    },
  });

  /**
   * The login flow's second step (product-spec §4): a new account (signed in < 1000 ms after it was created)
   * gets its user record; a known one its `lastLogin`. In sign-in-only mode a social login that just created
   * an account undoes it and fails with 'Account not found'.
   */
  const complete = defineCallable({
    name: 'users-completeSignIn',
    data: CompleteData,
    authorize: async () => undefined,
    action: async ({ caller, q }, { mode }) => {
      const { rows } = await q.query<{ created: Date; email: string; name: string; image: string | null }>(
        `SELECT u."createdAt" AS created, u.email, u.name, u.image FROM "user" u WHERE u.id = $1`,
        [caller.uid],
      );
      const account = rows[0];
      if (!account) throw new ProductError('not-found', 'Account not loaded');
      // The account's metadata decides "new": its creation and this sign-in (product-spec §8 texts).
      if (!caller.sessionCreatedAt) throw new ProductError('failed-precondition', 'User metadata not found');
      const signedInMs = new Date(caller.sessionCreatedAt).getTime();
      const createdMs = new Date(account.created).getTime();
      if (!Number.isFinite(signedInMs) || !Number.isFinite(createdMs)) {
        throw new ProductError('internal', 'Invalid user metadata');
      }
      const isNew = signedInMs - createdMs < NEW_ACCOUNT_THRESHOLD_MS;
      if (isNew && mode === 'sign-in') {
        const { rows: creds } = await q.query(
          'SELECT 1 FROM account WHERE "userId" = $1 AND "providerId" = $2',
          [caller.uid, 'credential'],
        );
        if (creds.length === 0) {
          await q.query('DELETE FROM "user" WHERE id = $1', [caller.uid]);
          return { refused: account.email } as const;
        }
      }
      if (isNew) await createUser(q, caller.uid, { name: account.name, photo: account.image });
      // A known account whose record is missing (the session hook only logs its failures) gets one now.
      else {
        await ensureProfile(q, caller.uid);
        await updateLastLogin(q, caller.uid);
      }
      if (!(await hasUserRecord(q, caller.uid))) throw new ProductError('internal', 'User not created');
      return { isNew };
    },
    afterCommit: async (caller, staged) => {
      if ('refused' in staged) {
        await chat.disconnectUser(caller.uid);
        // After the commit: the account is gone, the refusal is the answer.
        throw new ProductError('not-found', 'Account not found', `No account found for ${staged.refused}`);
      }
      return staged;
    },
  });

  return [update, register, unregister, complete];
}
