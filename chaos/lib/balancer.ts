import net from 'node:net';

/** What the balancer routes to: a port and whether the node is up (the runner knows what it killed). */
export interface Backend {
  readonly port: number;
  readonly up: boolean;
}

/**
 * A TCP load balancer with a home node, as a sticky load balancer in front of the cluster: a new connection goes to
 * the home node while it is up, else to the next live one (and to the next again when connecting fails). When a
 * node dies its connections close, so the clients behind them reconnect and land on a live node.
 */
export class Balancer {
  private readonly server = net.createServer((client) => this.accept(client));
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly home: number,
    private readonly backends: readonly Backend[],
  ) {}

  static async start(home: number, backends: readonly Backend[]): Promise<Balancer> {
    const lb = new Balancer(home, backends);
    await new Promise<void>((resolve) => lb.server.listen(0, '127.0.0.1', resolve));
    return lb;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private candidates(): Backend[] {
    const n = this.backends.length;
    const ordered = Array.from({ length: n }, (_, k) => this.backends[(this.home + k) % n] as Backend);
    return ordered.filter((b) => b.up);
  }

  private accept(client: net.Socket): void {
    client.pause();
    this.track(client);
    client.on('error', () => client.destroy());
    const tryNext = (left: Backend[]) => {
      const backend = left[0];
      if (!backend || client.destroyed) {
        client.destroy();
        return;
      }
      const upstream = net.connect(backend.port, '127.0.0.1');
      const failed = () => {
        upstream.destroy();
        tryNext(left.slice(1));
      };
      upstream.once('error', failed);
      upstream.once('connect', () => {
        upstream.off('error', failed);
        if (client.destroyed) {
          upstream.destroy();
          return;
        }
        this.track(upstream);
        upstream.on('error', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.on('close', () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    };
    tryNext(this.candidates());
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }
}
