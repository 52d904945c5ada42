import type { Organization } from '@caseroom/protocol';

/**
 * Whether the viewer has anything to do on the organization pages: some organization lets them manage people,
 * read the audit log, change the field schemas or see the chat activity (the answers' `policies`, decided by the
 * server). Clients, guests and team members without such rights do not get the "Organization admin" link at all.
 */
export function hasOrganizationAdmin(organizations: readonly Organization[]): boolean {
  return organizations.some(({ policies: p }) => p.manage || p.audit || p.writeSettings || p.analytics);
}
