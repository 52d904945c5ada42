import { ChatClient, type ChannelSnapshot, type ChatChannel, type MessageSets } from '@caseroom/sdk';
import WebSocket from 'ws';
import { API_KEY, signToken } from './cluster.js';

/**
 * A receiver: a real SDK `ChatClient` (over the `ws` package) behind a balancer, watching one channel as its active
 * channel. Every snapshot of the channel's state is observed, so what the user could have seen at any moment is
 * judged, not only the final screen: which messages ever appeared (any message set), which appeared twice in one
 * set, and which pairs of neighbours were shown (to compare with the server's order afterwards).
 */
export class Receiver {
  /** Message ids that appeared in the channel's state at any time. */
  readonly seen = new Set<string>();
  /** Ids shown twice in one message set at some moment. */
  readonly duplicated = new Set<string>();
  /** Neighbours shown, `before\nafter`, in any message set at any moment. */
  readonly neighbours = new Set<string>();
  /** Each outage: from losing the connection to the SDK's `connection.recovered` (epoch ms). */
  readonly outages: { from: number; to: number }[] = [];
  /** Message ids of the `message.new` events the client dispatched for the channel (live or from a sync). */
  readonly events = new Set<string>();
  /** The SDK's own warnings and errors (its `logger`), by message. */
  readonly warnings = new Map<string, number>();
  /** When `seen` last grew. */
  lastNewAt = Date.now();
  client: ChatClient | undefined;
  channel: ChatChannel | undefined;
  private lastSets: MessageSets | undefined;
  private offlineSince: number | undefined;

  constructor(
    readonly user: string,
    readonly channelId: string,
    readonly home: number,
    private readonly balancerPort: number,
  ) {}

  async connect(): Promise<void> {
    const client = new ChatClient({
      apiKey: API_KEY,
      baseUrl: `http://127.0.0.1:${this.balancerPort}/chat`,
      WebSocket,
      logger: (level, message) => {
        if (level !== 'warn' && level !== 'error') return;
        const key = `${level}: ${message.slice(0, 120)}`;
        this.warnings.set(key, (this.warnings.get(key) ?? 0) + 1);
      },
    });
    this.client = client;
    await client.connectUser({ id: this.user }, async () => signToken({ user_id: this.user }));
    client.connection.subscribe(() => {
      const online = client.connection.getSnapshot().online;
      if (!online && this.offlineSince === undefined) this.offlineSince = Date.now();
    });
    client.on('connection.recovered', () => {
      if (this.offlineSince === undefined) return;
      this.outages.push({ from: this.offlineSince, to: Date.now() });
      this.offlineSince = undefined;
    });
    client.on('message.new', (event) => {
      if (event.cid === `messaging:${this.channelId}`) this.events.add(event.message.id);
    });
    const channel = client.channel('messaging', this.channelId);
    this.channel = channel;
    channel.state.subscribe(() => this.observe(channel.state.getSnapshot()));
    await channel.watch();
    client.setActiveChannel(channel);
    this.observe(channel.state.getSnapshot());
  }

  /** Connected, online and not between a drop and its recovery. */
  get settled(): boolean {
    return this.offlineSince === undefined && this.client?.connection.getSnapshot().online === true;
  }

  /** The current message set's ids, as on screen now. */
  screen(): string[] {
    return this.channel?.state.getSnapshot().messages.map((m) => m.id) ?? [];
  }

  private observe(snapshot: ChannelSnapshot): void {
    if (snapshot.messageSets === this.lastSets) return;
    this.lastSets = snapshot.messageSets;
    for (const set of snapshot.messageSets) {
      const inSet = new Set<string>();
      let previous: string | undefined;
      for (const message of set.messages) {
        const id = message.id;
        if (inSet.has(id)) this.duplicated.add(id);
        inSet.add(id);
        if (!this.seen.has(id)) {
          this.seen.add(id);
          this.lastNewAt = Date.now();
        }
        if (previous !== undefined && previous !== id) this.neighbours.add(`${previous}\n${id}`);
        previous = id;
      }
    }
  }

  async close(): Promise<void> {
    await this.client?.disconnectUser().catch(() => undefined);
  }
}
