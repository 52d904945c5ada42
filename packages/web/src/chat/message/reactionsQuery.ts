import type { Reaction } from '@caseroom/protocol';
import type { ChatClient } from '@caseroom/sdk';

/** Users per page in the reaction detail modal. */
export const REACTIONS_PAGE = 25;

/**
 * One page of a message's reactions, newest first (`GET /messages/{id}/reactions`). Adapter on `client.api`
 * until the SDK wraps reaction queries.
 */
export async function queryReactions(
  client: ChatClient,
  messageId: string,
  options: { offset: number; type?: string | undefined; limit?: number },
): Promise<Reaction[]> {
  const query: Record<string, string | number> = {
    limit: options.limit ?? REACTIONS_PAGE,
    offset: options.offset,
  };
  if (options.type) query['type'] = options.type;
  const answer = await client.api.get<{ reactions: Reaction[] }>(
    `/messages/${encodeURIComponent(messageId)}/reactions`,
    {
      query,
    },
  );
  return answer.reactions;
}
