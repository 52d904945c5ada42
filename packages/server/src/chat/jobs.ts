import type { Queryable } from '../platform/db.js';
import type { Logger } from '../platform/logger.js';

/** A job run on a schedule: every `everyMs`, by one node at a time. */
export interface ScheduledJob {
  name: string;
  everyMs: number;
  run(now: Date): Promise<unknown>;
}

/** A claimed job is another node's to finish for this long; after it (the node died), any node may run it. */
const CLAIM_MS = 10 * 60 * 1000;
/** How often a node looks for due jobs. */
export const JOB_POLL_MS = 60 * 1000;

/**
 * Scheduled jobs on the database (docs/decisions.md "Scheduled jobs in chat_jobs"): one row per job in `chat_jobs`
 * with its next run time. Every node looks every {@link JOB_POLL_MS}; a due job is claimed with one conditional
 * `UPDATE` (so one node runs it), run, and given its next run time. The schedule survives restarts and works on
 * PostgreSQL and PGlite alike. `clock` is injectable (tests move time instead of waiting).
 */
export class JobRunner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<string[]> | undefined;
  clock: () => Date = () => new Date();

  constructor(
    private readonly db: Queryable,
    private readonly log: Logger,
    private readonly jobs: readonly ScheduledJob[],
  ) {}

  /** Registers the jobs (first run: now) and starts looking for due ones. */
  async start(pollMs = JOB_POLL_MS): Promise<void> {
    for (const job of this.jobs) {
      await this.db.query(
        'INSERT INTO chat_jobs (name, run_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
        [job.name, this.clock()],
      );
    }
    this.timer = setInterval(() => {
      this.tick().catch((err: unknown) => this.log.warn({ err }, 'chat jobs failed'));
    }, pollMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Runs the jobs due now (one look at a time); answers the names of the jobs this node ran. */
  tick(): Promise<string[]> {
    this.running ??= this.runDue().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async runDue(): Promise<string[]> {
    const ran: string[] = [];
    for (const job of this.jobs) {
      const now = this.clock();
      const claimed = await this.db.query(
        `UPDATE chat_jobs SET locked_until = $2::timestamptz + make_interval(secs => $3)
          WHERE name = $1 AND run_at <= $2 AND (locked_until IS NULL OR locked_until < $2)`,
        [job.name, now, CLAIM_MS / 1000],
      );
      if (claimed.rowCount === 0) continue;
      let error: string | null = null;
      try {
        await job.run(now);
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
        this.log.warn({ err, job: job.name }, 'chat job failed');
      }
      await this.db.query(
        `UPDATE chat_jobs SET locked_until = NULL, last_run_at = $2, last_error = $3,
                run_at = $2::timestamptz + make_interval(secs => $4) WHERE name = $1`,
        [job.name, now, error, job.everyMs / 1000],
      );
      ran.push(job.name);
    }
    return ran;
  }
}
