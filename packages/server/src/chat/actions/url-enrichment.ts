import * as linkify from 'linkifyjs';
import { linkPreviewUrl, type Attachment, type Message, type OgResponse } from '@caseroom/protocol';
import type { ChatContext } from '../context.js';
import { presentConfig } from '../policy/channel-types.js';
import { lockSeqOfMessage, write } from '../realtime/outbox.js';
import { memberIds } from '../store/channels.js';
import { lockMessageForEdit } from '../store/message-history.js';
import { getMessage } from '../store/messages.js';
import type { ChannelRow } from '../store/rows.js';
import { presentRow } from '../views/messages.js';

/** An enrichment claimed by a node that died is free again after this long. */
const CLAIM_MS = 60 * 1000;
/** Tries per message (a node dying mid-fetch counts as one). */
const MAX_ATTEMPTS = 3;
/** Messages enriched per round. */
const BATCH = 10;

/** The first link of a text that may have a preview (linkifyjs, as the send checks find links; chat-spec §5). */
export function firstPreviewLink(text: string): string | undefined {
  if (!text) return undefined;
  for (const link of linkify.find(text, 'url')) {
    const url = linkPreviewUrl(link.href);
    if (url) return url;
  }
  return undefined;
}

const hasPreview = (attachments: readonly Attachment[] | undefined) =>
  (attachments ?? []).some((a) => typeof a.og_scrape_url === 'string' && a.og_scrape_url !== '');

/**
 * After a send committed: queues the preview of the message's first link when the channel type's `url_enrichment`
 * is on, the request did not set `skip_enrich_url`, and no attachment carries a preview yet (chat-spec §3, §6). The
 * queue is a table (`chat_url_enrichments`), so the work survives a restart; this node starts on it at once.
 */
export async function queueEnrichment(
  ctx: ChatContext,
  channel: ChannelRow,
  message: Message,
  skip: boolean | undefined,
): Promise<void> {
  // Cheapest first: a plain send without a link pays for one linkify pass at most.
  if (skip || message.type === 'system' || !presentConfig(channel).url_enrichment) return;
  if (hasPreview(message.attachments)) return;
  const url = firstPreviewLink(message.text ?? '');
  if (!url) return;
  await ctx.db.query(
    'INSERT INTO chat_url_enrichments (message_id, url) VALUES ($1, $2) ON CONFLICT (message_id) DO NOTHING',
    [message.id, url],
  );
  ctx.urlEnrichment.kick();
}

/**
 * Adds a preview to a message through the update path (channel lock, then the message's; `message.updated` to the
 * channel's readers after the commit), keeping its attachments. Nothing happens when the message is gone, deleted,
 * already has a preview, or no longer holds the link (edited meanwhile).
 */
export async function addLinkPreview(ctx: ChatContext, messageId: string, og: OgResponse): Promise<boolean> {
  return write(ctx, async (q, out) => {
    await lockSeqOfMessage(q, out, messageId);
    await lockMessageForEdit(q, messageId);
    const row = await getMessage(q, messageId);
    if (!row || row.type === 'deleted' || row.deleted_at) return false;
    if (hasPreview(row.attachments) || firstPreviewLink(row.text) !== og.og_scrape_url) return false;
    const { rows } = await q.query<typeof row>(
      'UPDATE chat_messages SET attachments = $2, updated_at = now() WHERE id = $1 RETURNING *',
      [messageId, JSON.stringify([...row.attachments, og])],
    );
    const updated = rows[0];
    if (!updated) return false;
    const message = await presentRow(q, updated);
    const [type = '', id = ''] = splitCid(row.cid);
    out.channelEvent(await memberIds(q, row.cid), {
      type: 'message.updated',
      cid: row.cid,
      channel_type: type,
      channel_id: id,
      message,
      created_at: message.updated_at,
    });
    return true;
  });
}

function splitCid(cid: string): [string, string] {
  const at = cid.indexOf(':');
  return [cid.slice(0, at), cid.slice(at + 1)];
}

/**
 * Runs queued enrichments: claims a few rows (one node each), fetches each preview (cached, SSRF-safe) and adds
 * it. A failure marks nothing: the row goes and the message stays as it was (chat-spec §4, failed enrichment is
 * silent); only the log says why. Answers how many messages got a preview.
 */
export async function runEnrichments(ctx: ChatContext): Promise<number> {
  let added = 0;
  for (;;) {
    const { rows } = await ctx.db.query<{ message_id: string; url: string }>(
      `UPDATE chat_url_enrichments SET locked_until = now() + make_interval(secs => $1), attempts = attempts + 1
        WHERE message_id IN (
          SELECT message_id FROM chat_url_enrichments
           WHERE (locked_until IS NULL OR locked_until < now()) AND attempts < $2
           ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING message_id, url`,
      [CLAIM_MS / 1000, MAX_ATTEMPTS, BATCH],
    );
    if (rows.length === 0) break;
    await Promise.all(
      rows.map(async ({ message_id, url }) => {
        try {
          const og = await ctx.linkPreviews.preview(url);
          if (await addLinkPreview(ctx, message_id, og)) added++;
        } catch (err) {
          ctx.log.info({ err: (err as Error).message, messageId: message_id }, 'url enrichment: no preview');
        }
        await ctx.db.query('DELETE FROM chat_url_enrichments WHERE message_id = $1', [message_id]);
      }),
    );
  }
  await ctx.db.query('DELETE FROM chat_url_enrichments WHERE attempts >= $1', [MAX_ATTEMPTS]);
  return added;
}

/** This node's runner of the enrichment queue: one round at a time; a kick during a round asks for another. */
export class UrlEnrichment {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly ctx: () => ChatContext) {}

  /** Starts a round now (after a send queued one); returns at once. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = undefined;
    });
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        await runEnrichments(this.ctx());
      } catch (err) {
        this.ctx().log.warn({ err }, 'url enrichment failed');
      }
    } while (this.again && !this.stopped);
  }

  /** Resolves once no round runs (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }
}
