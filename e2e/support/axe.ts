import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SCRIPT = require.resolve('axe-core/axe.min.js');
let axeSource: string | undefined;

/** One accessibility rule broken on the page, as axe-core reports it (trimmed). */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules) in the page and answers the serious and critical violations, with
 * the selectors of the offending nodes, so a test can `expect(...).toEqual([])` and read what is wrong.
 */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, not added as a <script>: the app's Content-Security-Policy refuses
  // inline scripts (and reports each refusal as a console error), as it should.
  axeSource ??= fs.readFileSync(AXE_SCRIPT, 'utf8');
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    type Result = {
      violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
    };
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<Result> } })
      .axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => String(n.target)),
      }));
  });
}
