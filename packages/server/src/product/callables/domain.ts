import { caseplanLifecycleCallables } from '../caseplans/lifecycle.js';
import { caseplanPeopleCallables } from '../caseplans/people.js';
import { eventCallables } from '../events/callables.js';
import { organizationCallables } from '../organizations/callables.js';
import { inviteCallables } from '../organizations/invite-callables.js';
import { sessionCallables } from '../session/callables.js';
import { settingsCallables } from '../settings/callables.js';
import type { CallableDeps } from './deps.js';
import type { Callable } from './registry.js';
import { startChatCallable } from './start-chat.js';

/** Every callable of the product's domain (issue 4), for the registry. */
export function domainCallables(deps: CallableDeps): Callable[] {
  return [
    ...caseplanLifecycleCallables(),
    ...caseplanPeopleCallables(),
    ...organizationCallables(deps),
    ...inviteCallables(deps),
    ...settingsCallables(),
    ...eventCallables(),
    ...sessionCallables(deps),
    startChatCallable(),
  ] as Callable[];
}
