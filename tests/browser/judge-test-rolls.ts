/**
 * Test rolls judged on the setup page as an operator does: each roll made,
 * its dice checked against those in the tray, every third one corrected with
 * one click on a die, then confirmed; the tally the page shows follows each
 * verdict. Returns the tally worked out from the verdicts (`judge`).
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { judge, type AccuracyTally } from '../../src/setup/test-rolls.js';

export interface TestRollAnswer {
  readonly valid: boolean;
  readonly attempts: number;
  readonly reading: { readonly dice: ReadonlyArray<{ readonly value: number | null }> };
}

export async function judgeTestRolls(
  page: Page,
  options: { readonly rolls: number; readonly values: readonly number[]; readonly correctedDie: number; readonly afterRoll?: (roll: TestRollAnswer, n: number) => void | Promise<void> },
): Promise<Pick<AccuracyTally, 'rolls' | 'dice' | 'right' | 'unreadable' | 'wrong'>> {
  const count = options.values.length;
  const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 30_000, interval: 50 });
  await page.getByTestId('test-count').fill(String(count));
  let tally = { rolls: 0, dice: 0, right: 0, unreadable: 0, wrong: 0 };
  for (let n = 0; n < options.rolls; n++) {
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/setup/test-rolls') && r.request().method() === 'POST');
    await page.getByTestId('test-roll').click();
    const roll = (await (await answer).json()) as TestRollAnswer;
    await options.afterRoll?.(roll, n);
    expect(roll.valid).toBe(true);
    const read = roll.reading.dice.map((d) => d.value);
    expect([...read].sort()).toEqual([...options.values].sort());
    await poll(() => page.getByTestId('test-overlay').locator('[data-testid="die-outline"]').count()).toBe(count);
    const truth = read.map((v) => v ?? 0);
    const die = options.correctedDie;
    if (n % 3 === 2) {
      truth[die] = ((truth[die] ?? 1) % 6) + 1;
      await page.getByTestId(`test-die-${die}-${truth[die]}`).click();
    }
    if (n === 2 && process.env.SCREENSHOTS) await page.getByTestId('test-rolls-panel').screenshot({ path: 'docs/screenshots/setup-test-rolls.png' });
    const verdict = page.waitForRequest((r) => r.url().endsWith('/verdict'));
    await page.getByTestId('confirm').click();
    expect((await verdict).postDataJSON()).toEqual({ values: truth });
    const outcome = judge(read, truth, count);
    tally = { rolls: n + 1, dice: tally.dice + count, right: tally.right + outcome.right, unreadable: tally.unreadable + outcome.unreadable, wrong: tally.wrong + outcome.wrong };
    await poll(() => page.getByTestId('tally-rolls').textContent()).toBe(String(n + 1));
  }
  return tally;
}
