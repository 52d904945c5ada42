import type { ChatServerApi } from '../../chat/server-api.js';
import type { Db } from '../../platform/db.js';

/** What callables need beyond their transaction: the database (after commit) and chat's server API. */
export interface CallableDeps {
  db: Db;
  chat: ChatServerApi;
}
