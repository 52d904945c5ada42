import type { ChatServerApi, ChatUserInput } from '../../chat/server-api.js';
import type { Db, Queryable } from '../../platform/db.js';
import type { Auth } from '../auth/auth.js';
import { chatUserFor, teamMemberIds } from '../users/chat-user.js';
import { ensureProfile, findUserIdByEmail } from '../users/profiles.js';
import {
  DEMO_CASEPLANS,
  DEMO_DIRECT_MESSAGES,
  DEMO_GROUP_MESSAGES,
  DEMO_ORGANIZATION,
  DEMO_PASSWORD,
  DEMO_PEOPLE,
  demoId,
  type DemoCaseplan,
  type DemoPersonKey,
} from './demo-data.js';

/** What the demo seed made (ids are the same on every run). */
export interface DemoSeed {
  organizationId: string;
  users: Record<DemoPersonKey, string>;
  caseplanIds: string[];
  /** cid of the group channel on the first case plan. */
  groupChannelCid: string;
  /** cid of the one-to-one channel between maria and chloe. */
  directChannelCid: string;
}

/** Creates (when missing) the demo accounts through better-auth, so passwords are hashed by it. */
async function seedAccounts(auth: Auth, db: Db): Promise<Record<DemoPersonKey, string>> {
  const users = {} as Record<DemoPersonKey, string>;
  for (const person of DEMO_PEOPLE) {
    let uid = await findUserIdByEmail(db, person.email);
    if (!uid) {
      const created = await auth.api.signUpEmail({
        body: { email: person.email, password: DEMO_PASSWORD, name: person.name },
      });
      uid = created.user.id;
    }
    users[person.key] = uid;
  }
  return users;
}

async function seedCaseplan(
  q: Queryable,
  plan: DemoCaseplan,
  users: Record<DemoPersonKey, string>,
  ageMinutes: number,
): Promise<string> {
  const orgId = DEMO_ORGANIZATION.id;
  const id = demoId(`caseplan:${plan.key}`);
  await q.query(
    `INSERT INTO caseplans (id, organization_id, name, created_by, custom, created, updated)
     VALUES ($1, $2, $3, $4, $5, now() - make_interval(mins => $6), now() - make_interval(mins => $6))
     ON CONFLICT (id) DO NOTHING`,
    [id, orgId, plan.name, users.admin, JSON.stringify(plan.custom), ageMinutes],
  );
  for (const team of plan.teams) {
    await q.query(
      `INSERT INTO teams (id, caseplan_id, organization_id, name) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO NOTHING`,
      [demoId(`team:${plan.key}:${team.key}`), id, orgId, team.name],
    );
  }
  for (const role of plan.roles) {
    const roleId = demoId(`role:${plan.key}:${role.key}`);
    const teamId = demoId(`team:${plan.key}:${role.team}`);
    const client = role.client ?? false;
    await q.query(
      `INSERT INTO roles (id, caseplan_id, name, client, team_id, user_id) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO NOTHING`,
      [roleId, id, role.name, client, teamId, users[role.user]],
    );
    await q.query(
      `INSERT INTO caseplan_users (caseplan_id, user_id, role_id, team_id, active, client)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (caseplan_id, user_id) DO NOTHING`,
      [id, users[role.user], roleId, teamId, role.active ?? true, client],
    );
  }
  return id;
}

/** Organization, memberships, user records and case plans, in one transaction. */
async function seedProduct(db: Db, users: Record<DemoPersonKey, string>): Promise<string[]> {
  return db.tx(async (q) => {
    const org = DEMO_ORGANIZATION;
    await q.query(
      'INSERT INTO organizations (id, eid, name) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING',
      [org.id, org.eid, org.name],
    );
    for (const person of DEMO_PEOPLE) {
      const uid = users[person.key];
      await ensureProfile(q, uid);
      await q.query(`UPDATE profiles SET timezone = $2 WHERE id = $1 AND timezone IS NULL`, [
        uid,
        person.timezone,
      ]);
      // Demo addresses are not real mailboxes; mark them verified so every sign-in path accepts them.
      await q.query(`UPDATE "user" SET "emailVerified" = true WHERE id = $1`, [uid]);
      await q.query(
        `INSERT INTO organization_users (organization_id, user_id, type) VALUES ($1, $2, $3)
         ON CONFLICT (organization_id, user_id) DO NOTHING`,
        [org.id, uid, person.type],
      );
    }
    const ids: string[] = [];
    // Older first, so "the first case plan" (lists are oldest first) is the first one defined.
    for (const [i, plan] of DEMO_CASEPLANS.entries()) {
      ids.push(await seedCaseplan(q, plan, users, DEMO_CASEPLANS.length - i));
    }
    return ids;
  });
}

/** Chat users, the group channel of the first case plan and the maria-chloe channel, with messages. */
async function seedChat(
  chat: ChatServerApi,
  db: Db,
  users: Record<DemoPersonKey, string>,
  firstCaseplanId: string,
): Promise<{ groupChannelCid: string; directChannelCid: string }> {
  const chatUsers: ChatUserInput[] = [];
  for (const person of DEMO_PEOPLE) {
    const user = await chatUserFor(db, users[person.key]);
    if (user) chatUsers.push(user);
  }
  await chat.upsertUsers(chatUsers);

  const orgId = DEMO_ORGANIZATION.id;
  const group = await chat.getOrCreateChannel(
    'messaging',
    `caseplan-${firstCaseplanId}`,
    {
      name: DEMO_CASEPLANS[0]?.name ?? 'Case plan',
      members: DEMO_PEOPLE.map((p) => users[p.key]),
      team: orgId,
      caseplans: [firstCaseplanId],
      organizations: [orgId],
      hasClient: true,
      hasGuest: true,
    },
    users.admin,
  );
  // Team members moderate the chats the product creates (see teamMemberIds).
  const moderators = (cid: string, members: string[]) =>
    chat.addModerators(
      cid,
      teamMemberIds(chatUsers, orgId).filter((id) => members.includes(id)),
    );
  await moderators(
    group.cid,
    DEMO_PEOPLE.map((p) => users[p.key]),
  );
  if (!group.last_message_at) {
    for (const [i, m] of DEMO_GROUP_MESSAGES.entries()) {
      await chat.sendMessage(group.cid, users[m.from], { id: demoId(`message:group:${i}`), text: m.text });
    }
  }

  const direct = await chat.getOrCreateChannel(
    'messaging',
    undefined,
    {
      members: [users.maria, users.chloe],
      team: orgId,
      caseplans: [firstCaseplanId],
      organizations: [orgId],
      hasClient: true,
      hasGuest: false,
    },
    users.maria,
  );
  await moderators(direct.cid, [users.maria, users.chloe]);
  if (!direct.last_message_at) {
    for (const [i, m] of DEMO_DIRECT_MESSAGES.entries()) {
      await chat.sendMessage(direct.cid, users[m.from], { id: demoId(`message:direct:${i}`), text: m.text });
    }
  }
  return { groupChannelCid: group.cid, directChannelCid: direct.cid };
}

/** Arbitrary constant: the advisory lock that keeps nodes starting together from seeding at once. */
const SEED_LOCK = 7_241_005;

/**
 * Runs `fn` while holding a session advisory lock on PostgreSQL (a connection of its own, so the seed's other
 * statements go through the pool as usual). PGlite is one process and one connection: no lock is needed, and
 * holding its only connection would block the seed itself.
 */
async function underSeedLock<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  if (db.kind !== 'postgres') return fn();
  const client = await db.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [SEED_LOCK]);
    try {
      return await fn();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [SEED_LOCK]);
    }
  } finally {
    client.release();
  }
}

/**
 * The demo organization "Riverside Family Services" with its people, two case plans and two chats.
 * Idempotent: everything is found by a stable id or address, and only what is missing is created.
 */
export function seedDemo(auth: Auth, db: Db, chat: ChatServerApi): Promise<DemoSeed> {
  return underSeedLock(db, () => seedDemoUnlocked(auth, db, chat));
}

async function seedDemoUnlocked(auth: Auth, db: Db, chat: ChatServerApi): Promise<DemoSeed> {
  const users = await seedAccounts(auth, db);
  const caseplanIds = await seedProduct(db, users);
  const firstCaseplanId = caseplanIds[0];
  if (!firstCaseplanId) throw new Error('demo data has no case plan');
  const channels = await seedChat(chat, db, users, firstCaseplanId);
  return { organizationId: DEMO_ORGANIZATION.id, users, caseplanIds, ...channels };
}
