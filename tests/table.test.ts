import { describe, expect, it } from 'vitest';
import { createSimulator } from '../src/hardware/index.js';
import { createDiceReader } from '../src/vision/index.js';
import type { Camera, Frame, Tower } from '../src/hardware/index.js';
import { TowerError } from '../src/hardware/index.js';
import type { DiceReader, DiceReading } from '../src/vision/index.js';
import { Table, TableError, type TableEvent } from '../src/table.js';

const frame: Frame = { image: Buffer.from('jpeg'), width: 10, height: 10, capturedAt: 0 };
const camera: Camera = { capture: async () => frame };

function reading(values: Array<number | null>, problems: string[] = []): DiceReading {
  return {
    dice: values.map((value, i) => ({ value, colour: 'red', center: { x: i * 10, y: 0 }, box: [], size: 8, confidence: value === null ? 0 : 1 })),
    valid: problems.length === 0,
    problems,
    width: 10,
    height: 10,
    ms: 1,
  };
}

/** A reader that hands out the given readings in turn. */
function scriptedReader(readings: DiceReading[]): DiceReader & { calls: number } {
  const reader = {
    calls: 0,
    async read() {
      const next = readings[reader.calls++];
      if (!next) throw new Error('no more scripted readings');
      return next;
    },
  };
  return reader;
}

function countingTower(fail?: () => Error | null): Tower & { rolls: number[] } {
  const tower = {
    kind: 'test',
    rolls: [] as number[],
    async roll(count: number) {
      const err = fail?.();
      if (err) throw err;
      tower.rolls.push(count);
    },
  };
  return tower;
}

describe('Table roll pipeline', () => {
  it('re-rolls when the reading is invalid and applies the first valid one', async () => {
    const reader = scriptedReader([reading([1, 2, null, 4, 5], ['the red die cannot be read']), reading([6, 6, 6, 6, 5])]);
    const tower = countingTower();
    const table = new Table({ tower, camera, reader });
    const events: TableEvent[] = [];
    table.subscribe((e) => events.push(e));
    const game = table.create('dice-poker', ['Ann']);
    const after = await table.roll(game.id);
    expect(tower.rolls).toEqual([5, 5]);
    expect((after.state as { dice: number[] }).dice).toEqual([6, 6, 6, 6, 5]);
    expect(after.rolls[0]).toMatchObject({ attempts: 2, source: 'tower', values: [6, 6, 6, 6, 5] });
    const messages = events.flatMap((e) => (e.type === 'tower' ? [e.status.message] : []));
    expect(messages).toContain('the red die cannot be read — rolling again');
  });

  it('gives up after the allowed attempts, reports a fault and leaves the game as it was', async () => {
    const bad = reading([1, 2], ['expected 5 dice in the tray, found 2']);
    const table = new Table({ tower: countingTower(), camera, reader: scriptedReader([bad, bad, bad]), maxAttempts: 3 });
    const game = table.create('dice-poker', ['Ann']);
    await expect(table.roll(game.id)).rejects.toMatchObject({ code: 'vision/no_valid_reading', statusCode: 503 });
    expect(table.tower().state).toBe('fault');
    expect(table.get(game.id)).toEqual(game);
  });

  it('stops at once when the camera has moved since the calibration: every roll would be refused', async () => {
    const moved = 'the camera has moved since the tray was calibrated: the tray lies about 20 px across and 0 px down from where it was; calibrate again (dice-tower calibrate)';
    const refused = { ...reading([1, 2, 3, 4, 5, 6], [moved, 'expected 5 dice in the tray, found 6']), issues: [{ code: 'camera_moved' as const, message: moved }, { code: 'too_many' as const, message: 'expected 5 dice in the tray, found 6' }] };
    const tower = countingTower();
    const table = new Table({ tower, camera, reader: scriptedReader([refused, refused, refused]), maxAttempts: 3 });
    const game = table.create('dice-poker', ['Ann']);
    await expect(table.roll(game.id)).rejects.toMatchObject({ code: 'vision/no_valid_reading', message: `No valid reading after 1 roll: ${moved}; expected 5 dice in the tray, found 6.` });
    expect(tower.rolls).toEqual([5]);
    expect(table.tower()).toMatchObject({ state: 'fault', message: expect.stringContaining('calibrate again') });
    expect(table.get(game.id)).toEqual(game);
  });

  it('clears a failed roll\'s fault once that game\'s dice are typed in (not another game\'s)', async () => {
    const bad = reading([1, 2], ['expected 5 dice in the tray, found 2']);
    const table = new Table({ tower: countingTower(), camera, reader: scriptedReader([bad, bad, bad]), maxAttempts: 3 });
    const game = table.create('dice-poker', ['Ann']);
    await expect(table.roll(game.id)).rejects.toMatchObject({ code: 'vision/no_valid_reading' });
    expect(table.tower()).toMatchObject({ state: 'fault', gameId: game.id });
    const other = table.create('dice-poker', ['Bob']);
    await table.roll(other.id, [1, 2, 3, 4, 5]);
    expect(table.tower().state).toBe('fault');
    await table.roll(game.id, [6, 6, 6, 6, 6]);
    expect(table.tower()).toMatchObject({ state: 'ready', gameId: null });
  });

  it('reports what native code threw even when it is not an Error', async () => {
    const table = new Table({ tower: countingTower(), camera: { capture: () => Promise.reject('Mat::GetData - ROI') }, reader: scriptedReader([]) });
    const game = table.create('dice-poker', ['Ann']);
    await expect(table.roll(game.id)).rejects.toMatchObject({ code: 'tower/fault', message: 'Tower or camera fault: an unexpected error in the tower or camera code (Mat::GetData - ROI)' });
  });

  it('turns a tower fault into a fault status, and rolls again once it clears', async () => {
    let unplugged = true;
    const tower = countingTower(() => (unplugged ? new TowerError('tower/disconnected', 'USB cable unplugged') : null));
    const table = new Table({ tower, camera, reader: scriptedReader([reading([3, 3, 3, 3, 3])]) });
    const game = table.create('dice-poker', ['Ann']);
    await expect(table.roll(game.id)).rejects.toBeInstanceOf(TableError);
    expect(table.tower()).toMatchObject({ state: 'fault', message: expect.stringContaining('USB cable unplugged') });
    expect(table.get(game.id).rolls).toHaveLength(0);
    unplugged = false;
    const after = await table.roll(game.id);
    expect(after.rolls).toHaveLength(1);
    expect(table.tower().state).toBe('ready');
  });

  it('refuses a second roll while the tower is rolling', async () => {
    let release: () => void = () => {};
    const tower: Tower = { kind: 'slow', roll: () => new Promise<void>((resolve) => (release = resolve)) };
    const table = new Table({ tower, camera, reader: scriptedReader([reading([1, 2, 3, 4, 5])]) });
    const game = table.create('dice-poker', ['Ann']);
    const first = table.roll(game.id);
    await expect(table.roll(game.id)).rejects.toMatchObject({ code: 'tower/busy' });
    await expect(table.roll(game.id, [1, 2, 3, 4, 5])).rejects.toMatchObject({ code: 'tower/busy' });
    // Dice typed in for another game do not need the tower.
    const other = table.create('dice-poker', ['Bob']);
    await expect(table.roll(other.id, [6, 6, 6, 6, 6])).resolves.toMatchObject({ rolls: [{ source: 'manual' }] });
    expect(() => table.act(game.id, { type: 'score' })).toThrow(/tower is rolling/);
    release();
    await first;
  });

  it('records the action log so the game replays to the same state', async () => {
    const table = new Table({ tower: countingTower(), camera, reader: scriptedReader([]) });
    const game = table.create('dice-poker', ['Ann', 'Bob']);
    await table.roll(game.id, [2, 2, 5, 5, 1]);
    table.act(game.id, { type: 'hold', dice: [0, 1] } as { type: string });
    await table.roll(game.id, [2, 4, 4]);
    const done = table.act(game.id, { type: 'score', category: 'twoPairs' } as { type: string });
    const def = table.definition(done);
    let state = def.setup(done.players, done.options);
    for (const action of done.actions) state = def.apply(state, action);
    expect(state).toEqual(done.state);
  });
});

describe('bot seats', () => {
  it('plays the bot seat\'s whole turn through the tower after the human scores', async () => {
    const sim = createSimulator({ seed: 8, colours: ['white'] });
    const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), botDelayMs: 0 });
    const game = table.create('dice-poker', ['Ann', 'Robot'], {}, [1]);
    await table.roll(game.id, [2, 3, 4, 5, 6]);
    table.act(game.id, { type: 'score', category: 'largeStraight' } as { type: string });
    // The bot throws with the tower, maybe holds and throws again, then scores: the turn comes back to Ann.
    await expect.poll(() => (table.get(game.id).state as { current: number }).current, { timeout: 30_000 }).toBe(0);
    const after = table.get(game.id);
    const robot = (after.state as { players: Array<{ card: Record<string, number | null> }> }).players[1];
    expect(Object.values(robot?.card ?? {}).filter((v) => v !== null)).toHaveLength(1);
    expect(after.rolls.filter((r) => r.source === 'tower').length).toBeGreaterThanOrEqual(1);
    table.close();
  });

  it('refuses bot seats that do not exist', () => {
    const table = new Table({ tower: countingTower(), camera, reader: scriptedReader([]) });
    expect(() => table.create('dice-poker', ['Ann'], {}, [1])).toThrow(/Bot seat 1 is not one of the 1 seats/);
    expect(() => table.create('dice-poker', ['Ann', 'Bob'], {}, [1, 1])).toThrow(/named twice/);
  });

  it('stops a bot that cannot move and says why, without retrying forever', async () => {
    let rolls = 0;
    const tower: Tower = { kind: 'broken', roll: async () => { rolls++; throw new TowerError('tower/jam', 'tray jammed'); } };
    const table = new Table({ tower, camera, reader: scriptedReader([]), botDelayMs: 0 });
    const notices: string[] = [];
    table.subscribe((e) => { if (e.type === 'notice') notices.push(e.message); });
    table.create('dice-poker', ['Robot'], {}, [0]);
    await expect.poll(() => notices.length).toBe(1);
    expect(notices[0]).toMatch(/tray jammed/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rolls).toBe(1);
    table.close();
  });
});

/** A tower with events, driven by the test: unplug it mid-roll, plug it back, press its button. */
function eventTower() {
  const listeners = new Map<string, Array<(payload: unknown) => void>>();
  let connected = true;
  const tower = {
    kind: 'test-hardware',
    cycles: 0,
    async roll() {
      if (!connected) throw new TowerError('tower/disconnected', 'USB cable unplugged');
      tower.cycles++;
    },
    on(event: string, listener: (payload: unknown) => void) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return () => listeners.set(event, (listeners.get(event) ?? []).filter((l) => l !== listener));
    },
    emit(event: string, payload: unknown) {
      for (const l of listeners.get(event) ?? []) l(payload);
    },
    unplug() {
      connected = false;
      tower.emit('disconnect', { error: new TowerError('tower/disconnected', 'USB cable unplugged') });
    },
    plugIn() {
      connected = true;
      tower.emit('connect', { firmware: 'DiceTower', mode: 'tower-sysex', path: '/dev/ttyACM0' });
    },
  };
  return tower;
}

describe('a real tower\'s events', () => {
  it('shows a lost link, keeps the game as it was, and rolls again once exactly when the tower is back', async () => {
    const tower = eventTower();
    const table = new Table({ tower: tower as unknown as Tower, camera, reader: scriptedReader([reading([2, 2, 3, 3, 4])]) });
    const game = table.create('dice-poker', ['Ann']);
    tower.unplug();
    expect(table.tower()).toMatchObject({ state: 'fault', message: expect.stringContaining('Tower disconnected') });
    await expect(table.roll(game.id)).rejects.toMatchObject({ code: 'tower/fault' });
    expect(table.get(game.id).rolls).toHaveLength(0);
    tower.plugIn();
    await expect.poll(() => table.get(game.id).rolls.length).toBe(1);
    expect(tower.cycles).toBe(1);
    expect(table.tower().state).toBe('ready');
    table.close();
  });

  it('keeps showing a lost link when dice are typed in meanwhile (the tower is still gone)', async () => {
    const tower = eventTower();
    const table = new Table({ tower: tower as unknown as Tower, camera, reader: scriptedReader([]) });
    const game = table.create('dice-poker', ['Ann']);
    tower.unplug();
    await table.roll(game.id, [2, 2, 2, 2, 2]);
    expect(table.tower()).toMatchObject({ state: 'fault', message: expect.stringContaining('Tower disconnected') });
    table.close();
  });

  it('starts the roll the game is waiting for when the button is pressed', async () => {
    const tower = eventTower();
    const table = new Table({ tower: tower as unknown as Tower, camera, reader: scriptedReader([reading([6, 6, 6, 6, 6])]) });
    const notices: string[] = [];
    table.subscribe((e) => { if (e.type === 'notice') notices.push(e.message); });
    tower.emit('button', { at: 0 });
    expect(notices).toEqual(['Button pressed, but no game is waiting for a roll.']);
    const game = table.create('dice-poker', ['Ann']);
    tower.emit('button', { at: 1 });
    await expect.poll(() => table.get(game.id).rolls.length).toBe(1);
    expect((table.get(game.id).state as { dice: number[] }).dice).toEqual([6, 6, 6, 6, 6]);
    table.close();
  });
});

describe('races between the tower, the operator and bots', () => {
  it('does not roll again on reconnect when the dice were typed in meanwhile', async () => {
    const tower = eventTower();
    const table = new Table({ tower: tower as unknown as Tower, camera, reader: scriptedReader([reading([6, 6, 6, 6, 6])]) });
    const game = table.create('dice-poker', ['Ann']);
    tower.unplug();
    await expect(table.roll(game.id)).rejects.toMatchObject({ code: 'tower/fault' });
    await table.roll(game.id, [1, 2, 3, 4, 5]);
    tower.plugIn();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(tower.cycles).toBe(0);
    expect(table.get(game.id).rolls.map((r) => r.source)).toEqual(['manual']);
    expect((table.get(game.id).state as { dice: number[] }).dice).toEqual([1, 2, 3, 4, 5]);
    table.close();
  });

  it('keeps the game locked while its dice are in the air, even when a tower event rewrites the status', async () => {
    const tower = eventTower();
    let release: (f: Frame) => void = () => {};
    const slowCamera: Camera = { capture: () => new Promise<Frame>((resolve) => (release = resolve)) };
    const table = new Table({ tower: tower as unknown as Tower, camera: slowCamera, reader: scriptedReader([reading([6, 6, 6, 6, 6])]) });
    const game = table.create('dice-poker', ['Ann']);
    const rolling = table.roll(game.id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    tower.unplug(); // the link drops after the cycle, while the camera is still busy
    tower.plugIn();
    await expect(table.roll(game.id, [1, 2, 3, 4, 5])).rejects.toMatchObject({ code: 'tower/busy' });
    await expect(table.roll(game.id)).rejects.toMatchObject({ code: 'tower/busy' });
    release(frame);
    const after = await rolling;
    expect(after.rolls.map((r) => r.source)).toEqual(['tower']);
    expect((after.state as { throwsTaken: number }).throwsTaken).toBe(1);
    table.close();
  });

  it('cancels a bot move armed for a turn someone else played', async () => {
    const tower = countingTower();
    const table = new Table({ tower, camera, reader: scriptedReader([]), botDelayMs: 60 });
    const game = table.create('dice-poker', ['Ann', 'Robot'], {}, [1]);
    await table.roll(game.id, [2, 3, 4, 5, 6]);
    table.act(game.id, { type: 'score', category: 'largeStraight' } as { type: string });
    // The operator plays the robot's turn by hand before its delay is over.
    await table.roll(game.id, [1, 1, 1, 1, 2]);
    table.act(game.id, { type: 'score', category: 'aces' } as { type: string });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(tower.rolls).toEqual([]);
    expect((table.get(game.id).state as { current: number; throwsTaken: number })).toMatchObject({ current: 0, throwsTaken: 0 });
    table.close();
  });
});
