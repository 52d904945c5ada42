import crypto from 'node:crypto';
import type { TestServer } from './helpers/server.js';
import { call, get, type Person } from './domain-support.js';
import { freshMember, freshPlan, type World } from './authz-fixtures.js';

/** What one matrix case did: the HTTP status, and for list reads whether organization A's data showed. */
export interface Outcome {
  status: number;
  /** For reads that answer 200 to everyone (lists): whether the object was in the answer. */
  sawIt?: boolean;
}

export type Runner = (server: TestServer, world: World, person: Person | undefined) => Promise<Outcome>;

const fn =
  (
    name: string,
    data: (server: TestServer, world: World, person: Person | undefined) => Promise<unknown>,
  ): Runner =>
  async (server, world, person) => {
    const r = await call(server, person, name, await data(server, world, person));
    return { status: r.status };
  };

const read =
  (path: (server: TestServer, world: World) => Promise<string>): Runner =>
  async (server, world, person) => ({
    status: (await get(server, person, await path(server, world))).status,
  });

/** An open invite of organization A, mailed long enough ago that it may be re-sent (issue 15). */
async function freshInvite(server: TestServer, world: World): Promise<string> {
  const inviteId = crypto.randomUUID();
  await server.db.query(
    `INSERT INTO organization_invites (id, organization_id, email, type, invited_by, created)
     VALUES ($1, $2, $3, 'member', $4, now() - interval '1 hour')`,
    [inviteId, world.orgA, `invitee-${inviteId}@example.test`, world.cast.orgAdmin.uid],
  );
  return inviteId;
}

const plan = (server: TestServer, world: World, closed = false) =>
  freshPlan(server.db, world.orgA, world.cast, { closed });

/** A chat of a case plan of organization A with the plan's people (team member, client, guest), made once. */
const planChats = new WeakMap<World, Promise<string>>();
function planChat(server: TestServer, world: World): Promise<string> {
  let cid = planChats.get(world);
  if (!cid) {
    cid = (async () => {
      const p = await plan(server, world);
      const { teamOnCaseplan, client, guest } = world.cast;
      const members = [teamOnCaseplan.uid, client.uid, guest.uid];
      await server.app.chat.server.upsertUsers(members.map((id) => ({ id, name: id })));
      const channel = await server.app.chat.server.getOrCreateChannel(
        'messaging',
        `matrix-${crypto.randomUUID()}`,
        { members, team: world.orgA, caseplans: [p.id], organizations: [world.orgA], hasClient: true },
        teamOnCaseplan.uid,
      );
      return channel.cid;
    })();
    planChats.set(world, cid);
  }
  return cid;
}

/** Every call and read of the permission table, keyed as the table names them. */
export const RUNNERS: Record<string, Runner> = {
  'organizations-create': fn('organizations-create', async () => ({ name: 'New org' })),
  'GET /api/organizations': async (server, world, person) => {
    const r = await get(server, person, '/api/organizations');
    const list = Array.isArray(r.body) ? (r.body as { id: string }[]) : [];
    return { status: r.status, sawIt: list.some((o) => o.id === world.orgA) };
  },
  'session-selectOrganization': fn('session-selectOrganization', async (_s, w) => ({
    organizationId: w.orgA,
  })),
  'organizations-inviteUser': fn('organizations-inviteUser', async (_s, w) => ({
    organizationId: w.orgA,
    email: `invitee-${crypto.randomUUID()}@example.test`,
    type: 'member',
  })),
  'organizations-removeUser': fn('organizations-removeUser', async (s, w) => ({
    organizationId: w.orgA,
    userId: await freshMember(s.db, w.orgA),
  })),
  'organizations-setUserType': fn('organizations-setUserType', async (s, w) => ({
    organizationId: w.orgA,
    userId: await freshMember(s.db, w.orgA),
    type: 'guest',
  })),
  'organizations-resendInvite': fn('organizations-resendInvite', async (s, w) => ({
    organizationId: w.orgA,
    inviteId: await freshInvite(s, w),
  })),
  'organizations-cancelInvite': fn('organizations-cancelInvite', async (s, w) => ({
    organizationId: w.orgA,
    inviteId: await freshInvite(s, w),
  })),
  'GET /api/organizations/{id}/members': read(async (_s, w) => `/api/organizations/${w.orgA}/members`),
  'GET /api/organizations/{id}/audit': read(async (_s, w) => `/api/organizations/${w.orgA}/audit`),
  'GET /api/organizations/{id}/analytics': read(async (_s, w) => `/api/organizations/${w.orgA}/analytics`),
  'POST /api/analytics/chat-opened': async (server, world, person) => {
    const cid = await planChat(server, world);
    const res = await fetch(`${server.url}/api/analytics/chat-opened`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(person ? { authorization: `Bearer ${person.token}` } : {}),
      },
      body: JSON.stringify({ cid }),
    });
    return { status: res.status };
  },
  'settings-get': fn('settings-get', async (_s, w) => ({ organizationId: w.orgA, doc: 'caseplan-fields' })),
  'GET /api/organizations/{id}/settings/{doc}': read(
    async (_s, w) => `/api/organizations/${w.orgA}/settings/caseplan-fields`,
  ),
  'settings-set': fn('settings-set', async (_s, w) => ({
    organizationId: w.orgA,
    doc: 'client-fields',
    schema: { type: 'object', properties: { note: { type: 'string' } } },
  })),
  'GET /api/caseplans?organization={id}': read(async (_s, w) => `/api/caseplans?organization=${w.orgA}`),
  'GET /api/caseplans/overview?organization={id}': read(
    async (_s, w) => `/api/caseplans/overview?organization=${w.orgA}`,
  ),
  'caseplans-create': fn('caseplans-create', async (_s, w) => ({ organization: w.orgA, name: 'Created' })),
  'GET /api/caseplans/{id}': read(async (s, w) => `/api/caseplans/${(await plan(s, w)).id}`),
  'GET /api/caseplans/{id}/events': read(async (s, w) => `/api/caseplans/${(await plan(s, w)).id}/events`),
  'GET /api/caseplans/{id}/stats': read(async (s, w) => `/api/caseplans/${(await plan(s, w)).id}/stats`),
  'caseplans-update': fn('caseplans-update', async (s, w) => ({
    caseplanId: (await plan(s, w)).id,
    name: 'N',
  })),
  'caseplans-updateCustom': fn('caseplans-updateCustom', async (s, w) => ({
    caseplanId: (await plan(s, w)).id,
    custom: { field: 'value' },
  })),
  'caseplans-addUser': fn('caseplans-addUser', async (s, w) => {
    const p = await plan(s, w);
    return { caseplanId: p.id, roleId: p.roleSpare, userId: w.cast.teamOffCaseplan.uid };
  }),
  'caseplans-removeUser': fn('caseplans-removeUser', async (s, w) => ({
    caseplanId: (await plan(s, w)).id,
    userId: w.cast.guest.uid,
  })),
  'caseplans-addTeam': fn('caseplans-addTeam', async (s, w) => ({
    caseplanId: (await plan(s, w)).id,
    name: 'T2',
  })),
  'caseplans-updateTeam': fn('caseplans-updateTeam', async (s, w) => {
    const p = await plan(s, w);
    return { caseplanId: p.id, teamId: p.team, name: 'Renamed' };
  }),
  'caseplans-addRole': fn('caseplans-addRole', async (s, w) => {
    const p = await plan(s, w);
    return { caseplanId: p.id, name: 'New role', teamId: p.team };
  }),
  'caseplans-updateRole': fn('caseplans-updateRole', async (s, w) => {
    const p = await plan(s, w);
    return { caseplanId: p.id, roleId: p.roleSpare, name: 'Renamed role' };
  }),
  'events-create': fn('events-create', async (s, w) => ({
    caseplanId: (await plan(s, w)).id,
    title: 'New event',
    startsAt: '2031-05-01T09:00:00Z',
  })),
  'events-update': fn('events-update', async (s, w) => {
    const p = await plan(s, w);
    return { caseplanId: p.id, eventId: p.event, title: 'Moved' };
  }),
  'caseplans-close': fn('caseplans-close', async (s, w) => ({
    caseplanId: (await plan(s, w)).id,
    reason: 'r',
  })),
  'caseplans-reopen': fn('caseplans-reopen', async (s, w) => ({ caseplanId: (await plan(s, w, true)).id })),
  'events-rsvp': fn('events-rsvp', async (s, w) => {
    const p = await plan(s, w);
    return { caseplanId: p.id, eventId: p.event, response: 'yes' };
  }),
  'session-selectCaseplan': fn('session-selectCaseplan', async (s, w) => ({
    caseplanId: (await plan(s, w)).id,
  })),
  'chat-startChat': fn('chat-startChat', async (s, w, person) => {
    const p = await plan(s, w);
    const me = person?.uid ?? w.cast.teamOnCaseplan.uid;
    const partner = me === w.cast.teamOnCaseplan.uid ? w.cast.client.uid : w.cast.teamOnCaseplan.uid;
    return { caseplanId: p.id, contacts: [me, partner] };
  }),
};
