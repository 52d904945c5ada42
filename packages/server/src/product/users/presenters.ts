import type { MeResponse, ProductUser } from '@caseroom/protocol';
import { accountAbilities } from '../policies.js';
import type { AccountRow } from './profiles.js';

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

/** The user record (product-spec §3 User) as its owner sees it, devices and mail language included. */
export function presentUser(
  row: AccountRow,
): ProductUser & { language: string | null; devices: Record<string, unknown> } {
  return {
    id: row.id,
    name: row.name,
    photo: row.photo,
    timezone: row.timezone,
    lastLogin: iso(row.last_login),
    created: new Date(row.created).toISOString(),
    updated: new Date(row.updated).toISOString(),
    language: row.language,
    devices: row.devices,
  };
}

/** `GET /api/me`: the account, its claims (`sadmin` only when true) and its user record. */
export function presentMe(row: AccountRow): MeResponse {
  return {
    uid: row.id,
    email: row.email,
    emailVerified: row.emailVerified,
    claims: row.sadmin ? { sadmin: true } : {},
    policies: accountAbilities(row),
    user: presentUser(row),
  };
}
