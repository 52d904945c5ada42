import crypto from 'node:crypto';
import {
  CaseplanAddRoleData,
  CaseplanAddTeamData,
  CaseplanAddUserData,
  CaseplanRemoveUserData,
  CaseplanUpdateRoleData,
  CaseplanUpdateTeamData,
} from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { recordAudit, type AuditChange } from '../audit/record.js';
import { authorizeCaseplan } from '../callables/authorize.js';
import { defineCallable, type CallContext } from '../callables/registry.js';
import { ProductError } from '../errors.js';
import { removeFromCaseplanChannels, syncChatUsers } from './chat-links.js';
import {
  loadRole,
  membershipSnapshot,
  requireTeam,
  seatUser,
  syncRoleHolder,
  type RoleRow,
} from './roles.js';

/** Authorizes a case-plan edit and answers the case plan's organization. */
async function editable({ caller, q }: CallContext, caseplanId: string): Promise<string> {
  const { record } = await authorizeCaseplan(q, caller.uid, 'caseplans.edit', caseplanId, { write: true });
  return record.organization_id;
}

async function organizationOf(q: Queryable, caseplanId: string): Promise<string> {
  const { rows } = await q.query<{ organization_id: string }>(
    'SELECT organization_id FROM caseplans WHERE id = $1',
    [caseplanId],
  );
  return rows[0]?.organization_id ?? '';
}

async function audit(
  q: Queryable,
  caseplanId: string,
  change: Omit<AuditChange, 'organizationId' | 'caseplanId'>,
) {
  await q.query('UPDATE caseplans SET updated = now() WHERE id = $1', [caseplanId]);
  await recordAudit(q, { ...change, organizationId: await organizationOf(q, caseplanId), caseplanId });
}

const roleView = (r: RoleRow) => ({
  name: r.name,
  client: r.client,
  tempName: r.temp_name,
  team: r.team_id,
  user: r.user_id,
  invite: r.invite,
});

/** People, teams and roles on a case plan: `caseplans-addUser` ... `caseplans-updateRole` (product-spec §7). */
export function caseplanPeopleCallables() {
  const addUser = defineCallable({
    name: 'caseplans-addUser',
    data: CaseplanAddUserData,
    authorize: async (ctx, d) => {
      await editable(ctx, d.caseplanId);
    },
    action: async ({ caller, q, chat }, d) => {
      const role = await loadRole(q, d.caseplanId, d.roleId);
      const orgId = await organizationOf(q, d.caseplanId);
      const before = d.userId ? await membershipSnapshot(q, d.caseplanId, d.userId) : null;
      const uid = await seatUser(q, orgId, role, d.userId);
      await audit(q, d.caseplanId, {
        actorId: caller.uid,
        action: 'caseplan.user.add',
        entity: 'membership',
        entityId: uid,
        before,
        after: await membershipSnapshot(q, d.caseplanId, uid),
      });
      // The person becomes a chat user with their clientOf / guestOf, in the same transaction.
      await syncChatUsers(chat, q, [uid]);
      return { userId: uid };
    },
  });

  const removeUser = defineCallable({
    name: 'caseplans-removeUser',
    data: CaseplanRemoveUserData,
    authorize: async (ctx, d) => {
      await editable(ctx, d.caseplanId);
    },
    action: async ({ caller, q, chat }, d) => {
      const before = await membershipSnapshot(q, d.caseplanId, d.userId);
      if (!before?.active) throw new ProductError('failed-precondition', 'User not on caseplan');
      await q.query(
        'UPDATE caseplan_users SET active = false, updated = now() WHERE caseplan_id = $1 AND user_id = $2',
        [d.caseplanId, d.userId],
      );
      await q.query('UPDATE roles SET user_id = NULL WHERE caseplan_id = $1 AND user_id = $2', [
        d.caseplanId,
        d.userId,
      ]);
      await audit(q, d.caseplanId, {
        actorId: caller.uid,
        action: 'caseplan.user.remove',
        entity: 'membership',
        entityId: d.userId,
        before,
        after: await membershipSnapshot(q, d.caseplanId, d.userId),
      });
      // Leaving the case plan means leaving its chats, in the same transaction.
      await removeFromCaseplanChannels(chat, q, d.caseplanId, d.userId);
      return null;
    },
  });

  const addTeam = defineCallable({
    name: 'caseplans-addTeam',
    data: CaseplanAddTeamData,
    authorize: async (ctx, d) => {
      await editable(ctx, d.caseplanId);
    },
    action: async ({ caller, q }, d) => {
      const id = crypto.randomUUID();
      await q.query('INSERT INTO teams (id, caseplan_id, organization_id, name) VALUES ($1, $2, $3, $4)', [
        id,
        d.caseplanId,
        await organizationOf(q, d.caseplanId),
        d.name,
      ]);
      await audit(q, d.caseplanId, {
        actorId: caller.uid,
        action: 'team.add',
        entity: 'team',
        entityId: id,
        after: { name: d.name },
      });
      return id;
    },
  });

  const updateTeam = defineCallable({
    name: 'caseplans-updateTeam',
    data: CaseplanUpdateTeamData,
    authorize: async (ctx, d) => {
      await editable(ctx, d.caseplanId);
    },
    action: async ({ caller, q }, d) => {
      await requireTeam(q, d.caseplanId, d.teamId);
      const { rows } = await q.query<{ name: string }>('SELECT name FROM teams WHERE id = $1', [d.teamId]);
      await q.query('UPDATE teams SET name = $2 WHERE id = $1', [d.teamId, d.name]);
      await audit(q, d.caseplanId, {
        actorId: caller.uid,
        action: 'team.update',
        entity: 'team',
        entityId: d.teamId,
        before: rows[0],
        after: { name: d.name },
      });
      return d.teamId;
    },
  });

  const addRole = defineCallable({
    name: 'caseplans-addRole',
    data: CaseplanAddRoleData,
    authorize: async (ctx, d) => {
      await editable(ctx, d.caseplanId);
    },
    action: async ({ caller, q, chat }, d) => {
      await requireTeam(q, d.caseplanId, d.teamId);
      const id = crypto.randomUUID();
      await q.query(
        `INSERT INTO roles (id, caseplan_id, name, client, temp_name, team_id, invite)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, d.caseplanId, d.name, d.client ?? false, d.tempName ?? null, d.teamId, d.invite ?? null],
      );
      if (d.userId)
        await seatUser(
          q,
          await organizationOf(q, d.caseplanId),
          await loadRole(q, d.caseplanId, id),
          d.userId,
        );
      await audit(q, d.caseplanId, {
        actorId: caller.uid,
        action: 'role.add',
        entity: 'role',
        entityId: id,
        after: roleView(await loadRole(q, d.caseplanId, id)),
      });
      if (d.userId) await syncChatUsers(chat, q, [d.userId]);
      return id;
    },
  });

  const updateRole = defineCallable({
    name: 'caseplans-updateRole',
    data: CaseplanUpdateRoleData,
    authorize: async (ctx, d) => {
      await editable(ctx, d.caseplanId);
    },
    action: async ({ caller, q, chat }, d) => {
      const before = await loadRole(q, d.caseplanId, d.roleId);
      if (d.teamId !== undefined) await requireTeam(q, d.caseplanId, d.teamId);
      await q.query(
        `UPDATE roles SET name = COALESCE($2, name), team_id = COALESCE($3, team_id), client = COALESCE($4, client),
                temp_name = CASE WHEN $5 THEN $6 ELSE temp_name END,
                invite = CASE WHEN $7 THEN $8 ELSE invite END
          WHERE id = $1`,
        [
          d.roleId,
          d.name ?? null,
          d.teamId ?? null,
          d.client ?? null,
          d.tempName !== undefined,
          d.tempName ?? null,
          d.invite !== undefined,
          d.invite ?? null,
        ],
      );
      if (d.userId === null) await q.query('UPDATE roles SET user_id = NULL WHERE id = $1', [d.roleId]);
      let role = await loadRole(q, d.caseplanId, d.roleId);
      await syncRoleHolder(q, role);
      if (d.userId) await seatUser(q, await organizationOf(q, d.caseplanId), role, d.userId);
      role = await loadRole(q, d.caseplanId, d.roleId);
      await audit(q, d.caseplanId, {
        actorId: caller.uid,
        action: 'role.update',
        entity: 'role',
        entityId: d.roleId,
        before: roleView(before),
        after: roleView(role),
      });
      await syncChatUsers(
        chat,
        q,
        [before.user_id, role.user_id].filter((u): u is string => !!u),
      );
      return d.roleId;
    },
  });

  return [addUser, removeUser, addTeam, updateTeam, addRole, updateRole];
}
