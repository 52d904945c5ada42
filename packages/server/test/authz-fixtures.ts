import crypto from 'node:crypto';
import type { Queryable } from '../src/platform/db.js';
import type { Position } from '../src/product/permissions.js';
import type { TestServer } from './helpers/server.js';
import { addMember, ok, signUp, type Person } from './domain-support.js';

/** The people of the authorization matrix, one per position (anonymous has none). */
export type Cast = Record<Exclude<Position, 'anonymous'>, Person> & { otherAdmin: Person };

export interface World {
  orgA: string;
  orgB: string;
  cast: Cast;
  /** A case plan of organization B (for mixed-id probes). */
  planB: PlanFixture;
}

export interface PlanFixture {
  id: string;
  team: string;
  roleOn: string;
  roleSpare: string;
  event: string;
}

const id = () => crypto.randomUUID();

/**
 * Organization A with a person in every position, organization B with its own admin ("other org").
 * The super-admin is in neither.
 */
export async function buildWorld(server: TestServer): Promise<World> {
  const superAdmin = await signUp(server, 'sadmin', { sadmin: true });
  const people = {
    orgAdmin: await signUp(server, 'orgadmin'),
    teamOnCaseplan: await signUp(server, 'teamon'),
    teamOffCaseplan: await signUp(server, 'teamoff'),
    client: await signUp(server, 'client'),
    guest: await signUp(server, 'guest'),
    clientOffCaseplan: await signUp(server, 'clientoff'),
    otherOrganization: await signUp(server, 'otherorg'),
  };
  const orgA = await ok<string>(server, superAdmin, 'organizations-create', {
    name: 'Org A',
    adminEmail: people.orgAdmin.email,
  });
  const orgB = await ok<string>(server, superAdmin, 'organizations-create', {
    name: 'Org B',
    adminEmail: people.otherOrganization.email,
  });
  await addMember(server.db, orgA, people.teamOnCaseplan.uid, 'member');
  await addMember(server.db, orgA, people.teamOffCaseplan.uid, 'member');
  await addMember(server.db, orgA, people.client.uid, 'client');
  await addMember(server.db, orgA, people.guest.uid, 'guest');
  await addMember(server.db, orgA, people.clientOffCaseplan.uid, 'client');
  const cast: Cast = { superAdmin, ...people, otherAdmin: people.otherOrganization };
  const planB = await freshPlan(server.db, orgB, cast, { peopleOf: 'B' });
  return { orgA, orgB, cast, planB };
}

/**
 * A case plan with a team, a role per on-plan position (team member, client, guest), a spare role with a team
 * and no user, and an event without attendees. Written with SQL: the matrix needs hundreds of these.
 */
export async function freshPlan(
  q: Queryable,
  organizationId: string,
  cast: Cast,
  opts: { closed?: boolean; peopleOf?: 'A' | 'B' } = {},
): Promise<PlanFixture> {
  const plan = id();
  const team = id();
  // The team member on the plan created it: the creator counts as on the plan, so the org admin stays "off" it.
  const creator = opts.peopleOf === 'B' ? cast.otherAdmin.uid : cast.teamOnCaseplan.uid;
  await q.query(
    'INSERT INTO caseplans (id, organization_id, name, created_by, closed) VALUES ($1, $2, $3, $4, $5)',
    [plan, organizationId, 'Matrix plan', creator, opts.closed ?? false],
  );
  await q.query('INSERT INTO teams (id, caseplan_id, organization_id, name) VALUES ($1, $2, $3, $4)', [
    team,
    plan,
    organizationId,
    'Team',
  ]);
  const seats: [string, Person, boolean][] =
    opts.peopleOf === 'B'
      ? [['Lead', cast.otherAdmin, false]]
      : [
          ['Worker', cast.teamOnCaseplan, false],
          ['Client', cast.client, true],
          ['Guest', cast.guest, false],
        ];
  let roleOn = '';
  for (const [name, person, client] of seats) {
    const role = id();
    roleOn ||= role;
    await q.query(
      'INSERT INTO roles (id, caseplan_id, name, client, team_id, user_id) VALUES ($1, $2, $3, $4, $5, $6)',
      [role, plan, name, client, team, person.uid],
    );
    await q.query(
      `INSERT INTO caseplan_users (caseplan_id, user_id, role_id, team_id, active, client)
       VALUES ($1, $2, $3, $4, true, $5)`,
      [plan, person.uid, role, team, client],
    );
  }
  const roleSpare = id();
  await q.query('INSERT INTO roles (id, caseplan_id, name, team_id) VALUES ($1, $2, $3, $4)', [
    roleSpare,
    plan,
    'Spare',
    team,
  ]);
  const event = id();
  await q.query(
    `INSERT INTO events (id, caseplan_id, title, starts_at, created_by) VALUES ($1, $2, 'Meeting', now(), $3)`,
    [event, plan, creator],
  );
  return { id: plan, team, roleOn, roleSpare, event };
}

/** A bare account and an active membership (targets for remove/set-type), without the cost of a sign-up. */
export async function freshMember(q: Queryable, organizationId: string): Promise<string> {
  const uid = id();
  await q.query(
    `INSERT INTO "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
     VALUES ($1, 'Target', $2, true, now(), now())`,
    [uid, `target-${uid}@example.test`],
  );
  await addMember(q, organizationId, uid, 'member');
  return uid;
}
