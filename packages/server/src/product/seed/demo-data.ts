import crypto from 'node:crypto';
import type { OrganizationUserType } from '@caseroom/protocol';

/** Password of every demo account (listed in the README). */
export const DEMO_PASSWORD = 'caseroom-demo';

/** A stable UUID-shaped id for a demo object, so a second seed finds what the first one made. */
export function demoId(label: string): string {
  const h = crypto.createHash('sha256').update(`caseroom-demo:${label}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export type DemoPersonKey = 'admin' | 'maria' | 'noah' | 'chloe' | 'gary';

export interface DemoPerson {
  key: DemoPersonKey;
  email: string;
  name: string;
  type: OrganizationUserType;
  timezone: string;
}

export const DEMO_PEOPLE: readonly DemoPerson[] = [
  {
    key: 'admin',
    email: 'admin@caseroom.test',
    name: 'Alex Morgan',
    type: 'admin',
    timezone: 'Europe/London',
  },
  {
    key: 'maria',
    email: 'maria@caseroom.test',
    name: 'Maria Lopez',
    type: 'member',
    timezone: 'Europe/London',
  },
  { key: 'noah', email: 'noah@caseroom.test', name: 'Noah Kim', type: 'member', timezone: 'Europe/London' },
  {
    key: 'chloe',
    email: 'chloe@caseroom.test',
    name: 'Chloe Bennett',
    type: 'client',
    timezone: 'Europe/London',
  },
  { key: 'gary', email: 'gary@caseroom.test', name: 'Gary Ford', type: 'guest', timezone: 'Europe/London' },
];

export const DEMO_ORGANIZATION = {
  id: demoId('organization'),
  eid: 'riverside',
  name: 'Riverside Family Services',
};

export interface DemoRole {
  key: string;
  name: string;
  team: string;
  user: DemoPersonKey;
  client?: boolean;
  active?: boolean;
}

export interface DemoCaseplan {
  key: string;
  name: string;
  teams: { key: string; name: string }[];
  roles: DemoRole[];
  custom: Record<string, unknown>;
}

/** Two case plans: everyone is active on the first; Noah has left the second. */
export const DEMO_CASEPLANS: readonly DemoCaseplan[] = [
  {
    key: 'bennett',
    name: 'Bennett family plan',
    teams: [
      { key: 'care', name: 'Care team' },
      { key: 'family', name: 'Family and friends' },
    ],
    roles: [
      { key: 'coordinator', name: 'Coordinator', team: 'care', user: 'admin' },
      { key: 'case-manager', name: 'Case manager', team: 'care', user: 'maria' },
      { key: 'therapist', name: 'Family therapist', team: 'care', user: 'noah' },
      { key: 'client', name: 'Client', team: 'family', user: 'chloe', client: true },
      { key: 'mentor', name: 'Mentor', team: 'family', user: 'gary' },
    ],
    custom: { goal: 'Stable school attendance and weekly family sessions' },
  },
  {
    key: 'brooks',
    name: 'Brooks housing plan',
    teams: [{ key: 'housing', name: 'Housing team' }],
    roles: [
      { key: 'coordinator', name: 'Coordinator', team: 'housing', user: 'admin' },
      { key: 'advisor', name: 'Housing advisor', team: 'housing', user: 'maria' },
      { key: 'therapist', name: 'Therapist', team: 'housing', user: 'noah', active: false },
    ],
    custom: { goal: 'Secure a permanent tenancy' },
  },
];

/** Messages of the demo chats, by sender. */
export const DEMO_GROUP_MESSAGES: readonly { from: DemoPersonKey; text: string }[] = [
  { from: 'admin', text: 'Welcome to the Bennett family plan chat. This is where we coordinate.' },
  { from: 'maria', text: 'Hi all! First family session is on Thursday at 4 pm.' },
  { from: 'chloe', text: 'Thursday works for us. Thank you!' },
  { from: 'gary', text: 'I can drive Chloe to the session if that helps.' },
];

export const DEMO_DIRECT_MESSAGES: readonly { from: DemoPersonKey; text: string }[] = [
  { from: 'maria', text: 'Hi Chloe, just checking in. How did the week go?' },
  { from: 'chloe', text: 'Much better, thanks Maria.' },
];
