import type { Contact } from '@caseroom/protocol';
import { ApiError, apiGet, callFunction } from '../../api/http';

/** Thrown when the server has no contacts or start-chat endpoint yet (404): the UI says so instead of failing. */
export class StartChatUnavailable extends Error {}

/** `GET /api/contacts` (product-spec §5 contacts). */
export async function loadContacts(signal?: AbortSignal): Promise<Contact[]> {
  try {
    return await apiGet<Contact[]>('/api/contacts', signal);
  } catch (error) {
    if (error instanceof ApiError && error.httpStatus === 404) throw new StartChatUnavailable('contacts');
    throw error;
  }
}

/** `chat-startChat` with the viewer among the contacts; answers the channel's type and id. */
export async function startChat(
  viewerId: string,
  contactIds: readonly string[],
  caseplanId?: string,
): Promise<{ type: string; id: string }> {
  try {
    const result = await callFunction<{ cid: string; id: string; type: string }>('chat-startChat', {
      contacts: [viewerId, ...contactIds.filter((id) => id !== viewerId)],
      ...(caseplanId ? { caseplanId } : {}),
    });
    return { type: result.type, id: result.id };
  } catch (error) {
    if (error instanceof ApiError && error.httpStatus === 404) throw new StartChatUnavailable('startChat');
    throw error;
  }
}
