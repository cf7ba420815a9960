/**
 * Records `fixtures/serial/dice-tower-session.json`: what the real firmware
 * (in avr8js) sends during a johnny-five start-up and a short session (status,
 * a roll cycle, a button press). Run it after changing the firmware:
 *
 *     npx tsx tests/hardware/record-serial-fixture.ts
 */
import { writeFileSync } from 'node:fs';
import { TOWER_PINS, encodeTowerCommand } from '../../src/hardware/tower-protocol.js';
import { buildFirmware } from '../firmware/build.js';
import { Emulator } from '../firmware/emulator.js';
import { FIXTURE_PATH } from './fixture-path.js';

const board = Emulator.fromHexFile(buildFirmware());
board.setPin(TOWER_PINS.BUTTON, true);
board.setPin(TOWER_PINS.TRAY_SENSOR, false);
const steps: { label: string; hostSent: string; boardSent: string }[] = [];
const hex = (bytes: ArrayLike<number>) => Buffer.from(Array.from(bytes)).toString('hex');

function step(label: string, host: ArrayLike<number>, run: () => void): void {
  const from = board.received.length;
  if (host.length) board.transmit(host, 1);
  run();
  steps.push({ label, hostSent: hex(host), boardSent: hex(board.received.slice(from)) });
}

step('power-on: REPORT_VERSION and REPORT_FIRMWARE', [], () => board.run(50));
step('capability query', [0xf0, 0x6b, 0xf7], () => board.run(60));
step('analog mapping query', [0xf0, 0x69, 0xf7], () => board.run(20));
step('CONFIGURE silent 5000 ms, dim 16 (no reply)', encodeTowerCommand({ type: 'configure', silentTimeoutMs: 5000, dimLevel: 16 }), () => board.run(5));
step('QUERY_STATUS', encodeTowerCommand({ type: 'queryStatus' }), () => board.run(10));
step('ROLL cycle 1: tray leaves at 40 ms, back at 250 ms', encodeTowerCommand({ type: 'roll', cycleId: 1, tipAngle: 150, restAngle: 30, holdMs: 150, returnTimeoutMs: 300 }), () => {
  board.run(40);
  board.setPin(TOWER_PINS.TRAY_SENSOR, true);
  board.run(210);
  board.setPin(TOWER_PINS.TRAY_SENSOR, false);
  board.run(30);
});
step('button pressed for 60 ms', [], () => {
  board.setPin(TOWER_PINS.BUTTON, false);
  board.run(60);
  board.setPin(TOWER_PINS.BUTTON, true);
  board.run(40);
});

writeFileSync(
  FIXTURE_PATH,
  `${JSON.stringify(
    {
      description: 'Bytes between a host and the dice tower firmware (firmware/), recorded from the built .hex in avr8js by tests/hardware/record-serial-fixture.ts. Hex strings; boardSent is everything the board sent during the step.',
      steps,
    },
    null,
    2,
  )}\n`,
);
console.log(`wrote ${FIXTURE_PATH}`);
