import type { ChatClient } from '@caseroom/sdk';

/** The push provider the chat server forwards to (product-spec §7: addDevice with provider firebase). */
export const CHAT_PUSH_PROVIDER = 'firebase';
/** The name of Caseroom's push configuration on the chat server. */
export const CHAT_PUSH_PROVIDER_NAME = 'caseroom';

/** The chat's push devices of one user: `addDevice` and `removeDevice` (the token is the device id). */
export interface ChatPushDevices {
  addDevice(token: string): Promise<void>;
  removeDevice(token: string): Promise<void>;
}

/** The chat server's `POST /chat/devices` and `DELETE /chat/devices?id=` through the SDK client's API. */
export function chatPushDevices(client: ChatClient, userId: string): ChatPushDevices {
  return {
    async addDevice(token) {
      await client.api.post('/devices', {
        id: token,
        push_provider: CHAT_PUSH_PROVIDER,
        push_provider_name: CHAT_PUSH_PROVIDER_NAME,
        user_id: userId,
      });
    },
    async removeDevice(token) {
      await client.api.delete('/devices', { query: { id: token, user_id: userId } });
    },
  };
}
