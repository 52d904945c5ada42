import net from 'node:net';
import type { Mark, OnMark } from '../lib/driver.js';
import { markText, scanMarks } from '../lib/driver.js';
import { loopbackSource } from '../lib/stats.js';

/**
 * A minimal XMPP client over a raw socket (RFC 6120 with SASL PLAIN, in-band registration XEP-0077, MUC XEP-0045).
 * A library client (@xmpp/client) parses every stanza into a tree; with 1,000 to 19,000 connections on the
 * generator's single core that parsing would make the generator, not the server, the bottleneck. Here the
 * generator only looks for the benchmark marker in message bodies, the same work it does for Caseroom frames.
 */

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;');

/** One MAM page request: RSM `max`, and `before` ('' = the last page) or `after` an archive id. */
export interface MamPage {
  max: number;
  before?: string;
  after?: string;
}

export interface MamAnswer {
  /** The forwarded messages, in the order they arrived: archive id and message body. */
  messages: { id: string; body: string }[];
  first: string | undefined;
  last: string | undefined;
  count: number | undefined;
  complete: boolean;
}

const attr = (tag: string, name: string) =>
  new RegExp(`\\s${name}=(?:'([^']*)'|"([^"]*)")`)
    .exec(tag)
    ?.slice(1, 3)
    .find((v) => v !== undefined);
const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** The results of query `queryId` in `text` (result messages, then the iq with the `<fin>`). */
function parseMamAnswer(text: string, queryId: string): MamAnswer {
  const messages: { id: string; body: string }[] = [];
  const resultRe = /<result\b[^>]*>/g;
  for (let m = resultRe.exec(text); m; m = resultRe.exec(text)) {
    if (attr(m[0], 'queryid') !== queryId) continue;
    const end = text.indexOf('</result>', m.index);
    const inner = text.slice(m.index, end === -1 ? undefined : end);
    const body = /<body[^>]*>([^<]*)<\/body>/.exec(inner)?.[1] ?? '';
    messages.push({ id: attr(m[0], 'id') ?? '', body: unescapeXml(body) });
  }
  const iq = new RegExp(`<iq[^>]*id=['"]${queryId}['"][\\s\\S]*?</iq>`).exec(text)?.[0] ?? '';
  const fin = /<fin\b[^>]*>/.exec(iq)?.[0] ?? '';
  const tagText = (name: string) => new RegExp(`<${name}\\b[^>]*>([^<]*)</${name}>`).exec(iq)?.[1];
  const count = tagText('count');
  return {
    messages,
    first: tagText('first'),
    last: tagText('last'),
    count: count === undefined ? undefined : Number(count),
    complete: attr(fin, 'complete') === 'true',
  };
}

/** Resources handed out so far (each connection binds its own). */
let resources = 0;

export interface XmppTarget {
  port: number;
  domain: string;
  mucDomain: string;
}

export class XmppConnection {
  private buf = '';
  private waiter:
    { test: (buf: string) => number; resolve: () => void; reject: (e: Error) => void } | undefined;
  private streaming: OnMark | undefined;
  private closed = false;
  private readonly pendingAcks = new Map<number, () => void>();

  private constructor(
    readonly socket: net.Socket,
    private readonly target: XmppTarget,
    readonly user: string,
  ) {
    socket.setEncoding('utf8');
    socket.setNoDelay(true);
    socket.on('data', (chunk: string) => this.onData(chunk));
    socket.on('error', () => this.fail(new Error(`${user}: socket error`)));
    socket.on('close', () => {
      this.closed = true;
      this.fail(new Error(`${user}: stream closed`));
    });
  }

  /** Opens a stream, registers the account in-band when asked, authenticates, binds a resource. */
  static async login(
    target: XmppTarget,
    user: string,
    index: number,
    register: boolean,
  ): Promise<XmppConnection> {
    const socket = net.connect({ host: '127.0.0.1', port: target.port, localAddress: loopbackSource(index) });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const c = new XmppConnection(socket, target, user);
    try {
      await c.openStream();
      if (register) {
        c.write(
          `<iq type='set' id='reg'><query xmlns='jabber:iq:register'><username>${user}</username><password>pw-${user}</password></query></iq>`,
        );
        await c.expectIq('reg'); // a conflict (already registered) is fine too
      }
      const plain = Buffer.from(`\0${user}\0pw-${user}`).toString('base64');
      c.write(`<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>${plain}</auth>`);
      await c.expect((b) => {
        if (b.includes('<failure')) throw new Error(`${user}: authentication failed: ${b.slice(0, 300)}`);
        const i = b.indexOf('<success');
        return i === -1 ? -1 : b.indexOf('>', i) + 1;
      });
      await c.openStream();
      // A fresh resource per connection, as a reconnecting client gets: with a fixed one the new session's
      // full JID is the old one's, and the old session's departure (detected late, or the resource conflict)
      // takes the new occupant out of the room it just rejoined.
      c.write(
        `<iq type='set' id='bind'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>bench-${++resources}</resource></bind></iq>`,
      );
      await c.expectIq('bind');
      return c;
    } catch (err) {
      socket.destroy();
      throw err;
    }
  }

  write(data: string): void {
    if (!this.closed) this.socket.write(data);
  }

  private async openStream(): Promise<void> {
    this.write(
      `<?xml version='1.0'?><stream:stream to='${this.target.domain}' version='1.0' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>`,
    );
    await this.expect((b) => {
      const i = b.indexOf('</stream:features>');
      return i === -1 ? -1 : i + 18;
    });
  }

  private expectIq(id: string): Promise<void> {
    const re = new RegExp(`<iq[^>]*id=['"]${id}['"]`);
    return this.expect((b) => {
      const m = re.exec(b);
      if (!m) return -1;
      const close = b.indexOf('</iq>', m.index);
      const selfClosed = b.indexOf('/>', m.index);
      const tagEnd = b.indexOf('>', m.index);
      if (selfClosed !== -1 && selfClosed + 1 === tagEnd) return tagEnd + 1;
      return close === -1 ? -1 : close + 5;
    });
  }

  /** Waits until `test` finds what it looks for in the buffer; it answers where that ends (or -1). */
  private expect(test: (buf: string) => number, timeoutMs = 120_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        reject(new Error(`${this.user}: timed out; buffer: ${this.buf.slice(0, 300)}`));
      }, timeoutMs);
      this.waiter = {
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      this.check();
    });
  }

  private check(): void {
    const w = this.waiter;
    if (!w) return;
    let end: number;
    try {
      end = w.test(this.buf);
    } catch (err) {
      this.waiter = undefined;
      w.reject(err as Error);
      return;
    }
    if (end === -1) return;
    this.buf = this.buf.slice(end);
    this.waiter = undefined;
    w.resolve();
  }

  private fail(err: Error): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.reject(err);
  }

  private onData(chunk: string): void {
    this.buf += chunk;
    if (this.waiter) return this.check();
    if (!this.streaming) {
      if (this.buf.length > 65_536) this.buf = this.buf.slice(-1024);
      return;
    }
    const end = this.buf.lastIndexOf('</message>');
    if (end !== -1) {
      for (const stanza of this.buf.slice(0, end).split('</message>')) {
        const delayed = stanza.includes('urn:xmpp:delay');
        scanMarks(stanza, (mark) => this.onMark(mark, delayed));
      }
      this.buf = this.buf.slice(end + 10);
    } else if (this.buf.length > 65_536 && !this.buf.includes('<message')) {
      this.buf = this.buf.slice(-64);
    }
  }

  private senderIndex = -1;

  private onMark(mark: Mark, delayed: boolean): void {
    this.streaming?.(mark, delayed);
    if (mark.sender === this.senderIndex) {
      const ack = this.pendingAcks.get(mark.seq);
      if (ack) {
        this.pendingAcks.delete(mark.seq);
        ack();
      }
    }
  }

  /** Sends initial presence (an available, idle client). */
  available(): void {
    this.write('<presence/>');
    this.streaming = () => undefined;
  }

  /** Joins a MUC room without history; resolves on the room's self-presence (status 110). */
  async joinRoom(room: string, onMark: OnMark, history: 'none' | { since: string } = 'none'): Promise<void> {
    const hist = history === 'none' ? `<history maxstanzas='0'/>` : `<history since='${history.since}'/>`;
    this.write(
      `<presence to='${room}@${this.target.mucDomain}/${this.user}'><x xmlns='http://jabber.org/protocol/muc'>${hist}</x></presence>`,
    );
    await this.expect((b) => {
      if (/<presence[^>]*type=['"]error['"]/.test(b))
        throw new Error(`${this.user}: join refused: ${b.slice(0, 400)}`);
      const i = b.search(/code=['"]110['"]/);
      if (i === -1) return -1;
      const end = b.indexOf('</presence>', i);
      return end === -1 ? -1 : end + 11;
    }, 120_000);
    this.streaming = onMark;
    this.onData('');
  }

  /** Sends a groupchat message; resolves when the room reflects it back to this client. */
  sendToRoom(room: string, mark: Mark): Promise<void> {
    this.senderIndex = mark.sender;
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error('closed'));
      this.pendingAcks.set(mark.seq, resolve);
      this.write(
        `<message to='${room}@${this.target.mucDomain}' type='groupchat' id='m${mark.sender}-${mark.seq}'><body>${escapeXml(markText(mark))}</body></message>`,
      );
    });
  }

  private queries = 0;

  /**
   * Archive queries (XEP-0313 `urn:xmpp:mam:2` with XEP-0059 RSM paging) on a room this client is in, all sent at
   * once (pipelined on the stream); resolves when every one has its `<fin>`. Each answer lists the forwarded
   * messages in the order received (archive id and body) and the `<fin>`'s RSM `first`/`last`/`count` and
   * `complete`.
   */
  async mamQuery(room: string, pages: MamPage[]): Promise<MamAnswer[]> {
    const ids = pages.map(() => `mam${++this.queries}`);
    const iqs = pages.map((p, i) => {
      const rsm =
        `<max>${p.max}</max>` +
        (p.before !== undefined ? (p.before ? `<before>${p.before}</before>` : '<before/>') : '') +
        (p.after !== undefined ? `<after>${p.after}</after>` : '');
      const id = ids[i] as string;
      return `<iq type='set' id='${id}' to='${room}@${this.target.mucDomain}'><query xmlns='urn:xmpp:mam:2' queryid='${id}'><set xmlns='http://jabber.org/protocol/rsm'>${rsm}</set></query></iq>`;
    });
    let text = '';
    const last = ids.map((id) => new RegExp(`<iq[^>]*id=['"]${id}['"]`));
    this.write(iqs.join(''));
    await this.expect((b) => {
      let end = 0;
      for (const re of last) {
        const m = re.exec(b);
        if (!m) return -1;
        if (/^<iq[^>]*type=['"]error['"]/.test(b.slice(m.index)))
          throw new Error(`${this.user}: MAM query refused: ${b.slice(m.index, m.index + 400)}`);
        const close = b.indexOf('</iq>', m.index);
        if (close === -1) return -1;
        end = Math.max(end, close + 5);
      }
      text = b.slice(0, end);
      return end;
    }, 60_000);
    return ids.map((id) => parseMamAnswer(text, id));
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.end('</stream:stream>');
      setTimeout(() => {
        this.socket.destroy();
        resolve();
      }, 2000).unref();
    });
  }
}
