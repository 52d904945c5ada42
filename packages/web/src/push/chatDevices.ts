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

/** The chat server's push devices of the connected user, through the SDK (`client.devices`). */
export function chatPushDevices(client: ChatClient): ChatPushDevices {
  return {
    addDevice: (token) => client.devices.add(token, CHAT_PUSH_PROVIDER, CHAT_PUSH_PROVIDER_NAME),
    removeDevice: (token) => client.devices.remove(token),
  };
}
