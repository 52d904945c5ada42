import { linkPreviewUrl, OgQuery } from '@caseroom/protocol';
import type { FastifyInstance } from 'fastify';
import type { ChatContext } from '../context.js';
import { inputError } from '../errors.js';
import { PreviewError } from '../link-previews/scrape.js';
import { actorOf, parse } from './pipeline.js';

/**
 * `GET /chat/og?url=` (chat-spec §7, enrichURL): the preview of a page as an attachment with `og_scrape_url`, for
 * any user (anonymous connections are refused by the gate). Code 4 for a URL without a hostname of valid domain
 * form (§5) and for a page that cannot be previewed (refused address, unreachable, not HTML), with a message that
 * names no address.
 */
export function linkPreviewRoutes(http: FastifyInstance, ctx: ChatContext): void {
  http.get('/og', async (req) => {
    actorOf(req);
    const { url } = parse(OgQuery, req.query);
    const target = linkPreviewUrl(url);
    if (!target) throw inputError('url: the link must be http or https with a hostname of valid domain form');
    try {
      return await ctx.linkPreviews.preview(target);
    } catch (err) {
      if (err instanceof PreviewError) throw inputError(`url: ${err.message}`);
      throw err;
    }
  });
}
