import { ChatClient, type ChatClientOptions } from '../client/chat-client.js';
import type { FakeChatServer } from './fake-server.js';

export { FakeChatServer, type FakeFailure, type FakeRequest } from './fake-server.js';
export { FakeWebSocket, type FakeConnection } from './fake-websocket.js';
export { FakePollSession } from './fake-longpoll.js';

/** A client connected to `server` as `user` (created on the fake server when new). */
export async function connectFakeClient(
  server: FakeChatServer,
  user: { id: string; name?: string },
  options: Partial<ChatClientOptions> = {},
): Promise<ChatClient> {
  server.upsertUser(user);
  const client = new ChatClient({ ...server.clientOptions, ...options });
  await client.connectUser(user, async () => server.tokenFor(user.id));
  return client;
}
export {
  FakeAudioContext,
  FakeMediaRecorder,
  fakeMediaEnvironment,
  type FakeMedia,
  type FakeMediaOptions,
} from './fake-media.js';
