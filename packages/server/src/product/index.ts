import type { FastifyInstance } from 'fastify';
import type { ChatModule } from '../chat/index.js';
import type { Platform } from '../platform/context.js';
import { createAuth, type Auth } from './auth/auth.js';
import { chatCallables } from './callables/chat.js';
import { domainCallables } from './callables/domain.js';
import { CallableRegistry } from './callables/registry.js';
import { createMailer } from '../platform/mail.js';
import { resetRoutes } from './auth/reset-routes.js';
import { authRoutes } from './http/auth-routes.js';
import { devMailRoutes } from './http/dev-mail.js';
import { createAuthMailer } from './mail/auth-mails.js';
import { createInviteMailer } from './organizations/invite-mail.js';
import { inviteInfoRoutes } from './organizations/invite-info.js';
import { setupRoutes } from './setup/routes.js';
import { userCallables } from './users/callables.js';
import { photoRoutes } from './users/photo-routes.js';
import { createAuthenticator, type Authenticate } from './http/authenticate.js';
import { productRoutes } from './http/routes.js';
import { seedDemo, type DemoSeed } from './seed/demo.js';
import { disableDemoPasswords } from './seed/demo-guard.js';
import { recordMessageSent } from './statistics/messages.js';
import { createAnalytics, type Analytics } from './analytics/recorder.js';
import { analyticsRoutes } from './analytics/routes.js';
import { auditMessageRemoval, isProductUserId, PRODUCT_CHAT_RULES } from './chat-rules.js';

export type { DemoSeed } from './seed/demo.js';

/** Custom channel data only the server (through the product) may set. */
export const PRODUCT_CHANNEL_FIELDS = ['caseplans', 'organizations', 'hasClient', 'hasGuest'] as const;
export { ProductError } from './errors.js';

/** The product: accounts, users, organizations, case plans, contacts, statistics, callables. */
export interface ProductModule {
  /** The better-auth instance (sign-in, sessions). */
  auth: Auth;
  /** Resolves the signed-in user of a request (bearer token or session cookie), or throws 401. */
  authenticate: Authenticate;
  /** Creates the demo organization, people, case plans and chats when they are missing. */
  seedDemo(): Promise<DemoSeed>;
  /** The callables of `/api/functions/{name}` (tests iterate them). */
  callables: CallableRegistry;
  /** Production: removes the published demo password from demo accounts that still have it (see demo-guard). */
  disableDemoPasswords(): Promise<string[]>;
  /** Analytics events (chat opened, message sent) and their sinks (tests flush the HTTP sink). */
  analytics: Analytics;
}

/** Registers `/api/auth/*`, `/api/config`, `/api/me`, the reads and `/api/functions/{name}`. */
export async function registerProduct(
  http: FastifyInstance,
  platform: Platform,
  chat: ChatModule,
): Promise<ProductModule> {
  const mailer = createMailer(platform.config, platform.db, platform.log);
  const mail = createAuthMailer(platform.config, platform.db, mailer, platform.log);
  const auth = createAuth(platform.config, platform.db, platform.log, { mail, chat: chat.server });
  const authenticate = createAuthenticator(auth, platform.config.publicUrl);
  const callables = new CallableRegistry().add(
    ...chatCallables(chat.server),
    ...userCallables(chat.server),
    ...domainCallables({
      db: platform.db,
      chat: chat.server,
      config: platform.config,
      invites: createInviteMailer(platform.config, platform.db, mailer, platform.log),
    }),
  );
  // The channel fields that tie a chat to case plans are the product's to set: clients may not forge them.
  chat.server.protectChannelFields([...PRODUCT_CHANNEL_FIELDS]);
  // Chats are the product's: created and staffed through it only, nobody edits another's words (issue 13 §2-§3).
  await chat.server.installRules(PRODUCT_CHAT_RULES);
  chat.server.reserveUserIds((id) => isProductUserId(platform.db, id));
  chat.server.onMessageRemoved(auditMessageRemoval);

  // Each in its own encapsulated context: auth keeps raw bodies, the product routes have their error handler.
  await http.register(authRoutes, { auth });
  await http.register(productRoutes, { platform, authenticate, callables, chat: chat.server });
  const analytics = createAnalytics(platform);
  await http.register(analyticsRoutes, { db: platform.db, authenticate, chat: chat.server, analytics });
  await http.register(photoRoutes, { db: platform.db, authenticate, chat: chat.server });
  await http.register(resetRoutes, { db: platform.db });
  // Public: the first-run setup and the invite card of the login page (issue 15).
  await http.register(setupRoutes, { auth, db: platform.db, chat: chat.server, log: platform.log });
  await http.register(inviteInfoRoutes, { db: platform.db, config: platform.config });
  // The dev outbox: only without SMTP, outside production mode and from this machine (else /dev/* is 404).
  if (mailer.kind === 'outbox' && !platform.config.production) {
    await http.register(devMailRoutes, { mailer, publicUrl: platform.config.publicUrl });
  }

  chat.server.onMessageNew(async (event) => {
    try {
      await recordMessageSent(platform.db, event);
    } catch (err) {
      platform.log.error({ err, cid: event.cid }, 'recording message statistics failed');
    }
    // Beside lastMessageSentAt: the analytics event "chat message sent" (product-spec §7).
    try {
      await analytics.messageSent(event);
    } catch (err) {
      platform.log.error({ err, cid: event.cid }, 'recording the message-sent analytics event failed');
    }
  });

  return {
    auth,
    authenticate,
    seedDemo: () => seedDemo(auth, platform.db, chat.server),
    callables,
    disableDemoPasswords: () => disableDemoPasswords(platform.db, chat.server, platform.log),
    analytics,
  };
}
