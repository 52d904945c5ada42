import type { ChatServerApi } from '../../chat/server-api.js';
import type { Config } from '../../platform/config.js';
import type { Db } from '../../platform/db.js';
import type { InviteMailer } from '../organizations/invite-mail.js';

/** What callables need beyond their transaction: the database (after commit), chat's server API, mail. */
export interface CallableDeps {
  db: Db;
  chat: ChatServerApi;
  config: Config;
  invites: InviteMailer;
}
