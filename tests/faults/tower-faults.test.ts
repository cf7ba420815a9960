/**
 * Tower faults during play, through the real driver (FirmataTower, johnny-five
 * over firmata-io) on a scripted StandardFirmata board: the USB cable pulled
 * mid-roll, the board restarting mid-roll, firmware that stops answering, a
 * jammed tray. Each must end in a fault status on the scoreboard's feed that
 * says what happened, with the game exactly as it was (no roll lost, none
 * applied twice); once the fault clears the game goes on (by itself when the
 * tower comes back, or at the operator's next roll after a jam).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FirmataTower } from '../../src/hardware/firmata-tower.js';
import { createSimulator, type Tower } from '../../src/hardware/index.js';
import { TOWER_PINS } from '../../src/hardware/tower-protocol.js';
import type { HardwareTower } from '../../src/hardware/tower.js';
import { Table, type TableGame } from '../../src/table.js';
import { createDiceReader } from '../../src/vision/index.js';
import { FakeFirmataBoard } from '../hardware/fake-firmata-board.js';
import { watchScoreboard, type Scoreboard } from './scoreboard.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Rig {
  readonly board: FakeFirmataBoard;
  readonly driver: FirmataTower;
  readonly table: Table;
  readonly scoreboard: Scoreboard;
  readonly game: TableGame;
}

/** A table whose tower is the real driver on a scripted board; the simulator puts dice in the tray for the camera. */
async function rig(seed: number): Promise<Rig> {
  const board = new FakeFirmataBoard();
  const driver = new FirmataTower({
    openTransport: board.openTransport,
    holdMs: 100,
    returnTimeoutMs: 250,
    heartbeatMs: 200,
    // Well above the longest stall of a busy 2-core test machine (loading OpenCV blocks the event loop for a second).
    answerTimeoutMs: 2500,
    readyTimeoutMs: 800,
    reportVersionTimeoutMs: 100,
    reconnect: { initialMs: 50, maxMs: 200 },
  });
  cleanups.push(() => board.dispose(), () => driver.close());
  await driver.connect();
  const sim = createSimulator({ seed, colours: ['red'] });
  const tower: HardwareTower = {
    kind: driver.kind,
    get connected() {
      return driver.connected;
    },
    async roll(count, dice) {
      await driver.roll(count);
      await sim.tower.roll(count, dice);
    },
    setLight: (level) => driver.setLight(level),
    on: (event, listener) => driver.on(event, listener),
    close: () => driver.close(),
  };
  const table = new Table({ tower: tower as Tower, camera: sim.camera, reader: createDiceReader() });
  cleanups.push(() => table.close());
  const scoreboard = await watchScoreboard(table);
  cleanups.push(() => scoreboard.close());
  // Set-up may stall the event loop long enough to look like a silent board: start from a tower shown ready.
  await expect.poll(() => driver.connected && scoreboard.shown()?.state === 'ready', { timeout: 10_000 }).toBe(true);
  return { board, driver, table, scoreboard, game: table.create('dice-poker', ['Ann']) };
}

/** The scoreboard showed a fault naming `problem` at some point after `from`. */
const showedFault = (scoreboard: Scoreboard, from: number, problem: RegExp) =>
  scoreboard.tower.slice(from).some((s) => s.state === 'fault' && problem.test(s.message));

describe('tower faults end in a clear status and the game goes on', () => {
  it('USB cable pulled mid-roll: "disconnected", then the roll is made once when it is back', async () => {
    const { board, table, scoreboard, game } = await rig(1);
    const seen = scoreboard.tower.length;
    const roll = table.roll(game.id);
    roll.catch(() => {}); // awaited below: not an unhandled rejection meanwhile
    await expect.poll(() => board.tips).toBe(1); // the tray is tipping
    board.unplugged = true;
    board.openPort?.pull();
    await expect(roll).rejects.toMatchObject({ code: 'tower/fault', statusCode: 503 });
    await expect.poll(() => showedFault(scoreboard, seen, /Tower disconnected/)).toBe(true);
    expect(table.get(game.id)).toBe(game);
    await new Promise((resolve) => setTimeout(resolve, 300)); // away a while: reconnection attempts fail
    expect(table.tower().state).toBe('fault');
    board.unplugged = false;
    await expect.poll(() => table.get(game.id).rolls.length, { timeout: 5000 }).toBe(1);
    await expect.poll(() => scoreboard.shown()).toMatchObject({ state: 'ready' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(table.get(game.id).rolls).toHaveLength(1); // made once, not twice
    expect(scoreboard.rollCounts.get(game.id)?.at(-1)).toBe(1);
  });

  it('board restarts mid-roll (reset, power dip): the driver sets it up again and the roll is made once', async () => {
    const { board, table, scoreboard, game } = await rig(2);
    const seen = scoreboard.tower.length;
    const roll = table.roll(game.id);
    roll.catch(() => {}); // awaited below
    await expect.poll(() => board.tips).toBe(1);
    board.reboot();
    await expect(roll).rejects.toMatchObject({ code: 'tower/fault' });
    await expect.poll(() => showedFault(scoreboard, seen, /restarted/)).toBe(true);
    await expect.poll(() => table.get(game.id).rolls.length, { timeout: 5000 }).toBe(1);
    await expect.poll(() => scoreboard.shown()).toMatchObject({ state: 'ready' });
    // The board was set up afresh: the next roll works too.
    await table.roll(game.id);
    expect(table.get(game.id).rolls).toHaveLength(2);
  });

  it('firmware stops answering: "stopped answering", a roll asked for meanwhile is made once it answers again', async () => {
    const { board, table, scoreboard, game } = await rig(3);
    const seen = scoreboard.tower.length;
    board.muted = true;
    await expect.poll(() => showedFault(scoreboard, seen, /stopped answering/), { timeout: 8000 }).toBe(true);
    await expect(table.roll(game.id)).rejects.toMatchObject({ code: 'tower/fault', statusCode: 503 });
    expect(table.get(game.id)).toBe(game);
    board.muted = false;
    await expect.poll(() => table.get(game.id).rolls.length, { timeout: 8000 }).toBe(1);
    await expect.poll(() => scoreboard.shown()).toMatchObject({ state: 'ready' });
  });

  it('jam: "did not come back" with the game as it was, then the next roll once the tray is freed', async () => {
    const { board, table, scoreboard, game } = await rig(4);
    board.tray.jammed = true;
    await expect(table.roll(game.id)).rejects.toMatchObject({ code: 'tower/fault' });
    await expect.poll(() => scoreboard.shown()).toMatchObject({ state: 'fault', message: expect.stringMatching(/did not come back in place in time \(jam\)/) });
    expect(table.get(game.id)).toBe(game);
    board.tray.jammed = false;
    board.setInput(TOWER_PINS.TRAY_SENSOR, 0); // the operator seats the tray again
    await table.roll(game.id);
    expect(table.get(game.id).rolls).toHaveLength(1);
    await expect.poll(() => scoreboard.shown()).toMatchObject({ state: 'ready' });
  });
});
