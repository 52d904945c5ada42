import net from 'node:net';

export type ProxyMode = 'open' | 'down' | 'drop-responses';

/**
 * A loopback TCP proxy a test can cut: `down` closes every connection and refuses new ones (network
 * cut, server gone), `drop-responses` lets requests reach the server but swallows what comes back
 * (a send that lands while its answer is lost). `target` can be re-pointed to a restarted server.
 */
export class TcpProxy {
  private readonly server = net.createServer((client) => this.accept(client));
  private readonly pairs = new Set<[net.Socket, net.Socket]>();
  private mode: ProxyMode = 'open';

  private constructor(private target: number) {}

  static async start(targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetPort);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  setMode(mode: ProxyMode): void {
    this.mode = mode;
    if (mode === 'down') for (const [a, b] of [...this.pairs]) this.closePair(a, b);
  }

  /** Sends new connections to `port` (a restarted server) and opens the proxy again. */
  restore(port: number): void {
    this.target = port;
    this.mode = 'open';
  }

  async close(): Promise<void> {
    this.setMode('down');
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    if (this.mode === 'down') {
      client.destroy();
      return;
    }
    const upstream = net.connect(this.target, '127.0.0.1');
    const pair: [net.Socket, net.Socket] = [client, upstream];
    this.pairs.add(pair);
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      if (this.mode === 'open') client.write(chunk);
    });
    for (const socket of pair) {
      socket.on('error', () => this.closePair(client, upstream));
      socket.on('close', () => this.closePair(client, upstream));
    }
  }

  private closePair(a: net.Socket, b: net.Socket): void {
    for (const pair of this.pairs) if (pair[0] === a) this.pairs.delete(pair);
    a.destroy();
    b.destroy();
  }
}
