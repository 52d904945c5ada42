import type { FastifyInstance } from 'fastify';
import type { Platform } from '../platform/context.js';
import type { ChatServerApi } from './server-api.js';

export type { ChatServerApi } from './server-api.js';

/** The chat service: REST under `/chat`, WebSocket `/chat/connect`, long-poll fallback. */
export interface ChatModule {
  /** Server-side API (the product's way in; it never touches chat tables). */
  server: ChatServerApi;
  /** Closes sockets and bus subscriptions. */
  close(): Promise<void>;
}

export async function registerChat(_http: FastifyInstance, _platform: Platform): Promise<ChatModule> {
  throw new Error('chat module not built yet');
}
