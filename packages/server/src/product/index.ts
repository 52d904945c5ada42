import type { FastifyInstance } from 'fastify';
import type { Platform } from '../platform/context.js';
import type { ChatModule } from '../chat/index.js';

/** The product: accounts, users, organizations, case plans, contacts, statistics, callables. */
export interface ProductModule {
  /** Creates the demo organization, people, case plans and chats when they are missing. */
  seedDemo(): Promise<void>;
}

export async function registerProduct(
  _http: FastifyInstance,
  _platform: Platform,
  _chat: ChatModule,
): Promise<ProductModule> {
  // Routes are being built; until then the module registers nothing and seeding is a no-op.
  return { seedDemo: async () => undefined };
}
