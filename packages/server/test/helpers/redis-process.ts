import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { freePort } from './process.js';

/**
 * A redis-server of the test's own, on a free loopback port, that the test may stop, start again and freeze
 * (SIGSTOP) without touching the machine's shared Redis. Nothing is saved to disk.
 */
export interface TestRedis {
  url: string;
  port: number;
  /** Starts the server (again) on the same port and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops the server (SIGTERM) and waits until it exited. */
  stop(): Promise<void>;
  /** SIGSTOP: the server keeps its connections but answers nothing. */
  freeze(): void;
  /** SIGCONT: the frozen server goes on. */
  thaw(): void;
}

async function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const redis: TestRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      if (child) return;
      const proc = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      child = proc;
      proc.once('exit', () => {
        if (child === proc) child = undefined;
      });
      for (let i = 0; i < 200 && child === proc; i++) {
        if (await accepting(port)) return;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`redis-server did not start on port ${port}`);
    },
    async stop() {
      const proc = child;
      if (!proc) return;
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGCONT');
      proc.kill('SIGTERM');
      await exited;
    },
    freeze() {
      child?.kill('SIGSTOP');
    },
    thaw() {
      child?.kill('SIGCONT');
    },
  };
  await redis.start();
  return redis;
}
