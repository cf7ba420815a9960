/** What the setup page lists: video devices with their sysfs names, serial ports with their USB ids, and what it says of a board's firmware. */
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firmwareNote, listCameras, listSerialPorts } from '../../src/setup/devices.js';
import { buildApp } from '../../src/api/app.js';
import { NO_SETUP_HARDWARE } from '../../src/api/setup-routes.js';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';

describe('setup devices', () => {
  it('lists /dev/video* by number with the names sysfs gives, and nothing when there is none', () => {
    const root = mkdtempSync(join(tmpdir(), 'dice-tower-v4l-'));
    const sys = join(root, 'sys');
    const dev = join(root, 'dev');
    mkdirSync(dev);
    for (const [n, name] of [[10, 'USB Camera'], [0, 'HD Webcam C270'], [1, '']] as const) {
      mkdirSync(join(sys, `video${n}`), { recursive: true });
      writeFileSync(join(sys, `video${n}`, 'name'), `${name}\n`);
      writeFileSync(join(dev, `video${n}`), '');
    }
    writeFileSync(join(dev, 'ttyACM0'), '');
    expect(listCameras(sys, dev)).toEqual([
      { path: join(dev, 'video0'), index: 0, name: 'HD Webcam C270' },
      { path: join(dev, 'video1'), index: 1, name: null },
      { path: join(dev, 'video10'), index: 10, name: 'USB Camera' },
    ]);
    expect(listCameras(join(root, 'none'), join(root, 'none'))).toEqual([]);
  });

  it('describes serial ports with their USB id and whether they look like an Arduino', async () => {
    const ports = await listSerialPorts(async () => [
      { path: '/dev/ttyUSB0', vendorId: '1A86', productId: '7523' },
      { path: '/dev/ttyS0' },
    ]);
    expect(ports).toEqual([
      { path: '/dev/ttyUSB0', usbId: '1a86:7523', manufacturer: null, arduino: 'CH340 USB-serial (Uno clones)', description: '/dev/ttyUSB0 (1a86:7523)' },
      { path: '/dev/ttyS0', usbId: null, manufacturer: null, arduino: null, description: '/dev/ttyS0 (no USB id)' },
    ]);
  });

  it('says what a board\'s firmware means', () => {
    // A code and its parameters for the page to word in its language, and the English.
    expect(firmwareNote('DiceTower')).toMatchObject({ code: 'firmware/dice_tower', message: expect.stringMatching(/^The dice-tower firmware/) });
    expect(firmwareNote('StandardFirmata.ino')).toMatchObject({ code: 'firmware/standard_firmata', message: expect.stringMatching(/^Stock StandardFirmata: it works, with fewer safety features/) });
    expect(firmwareNote('Blink')).toEqual({ code: 'firmware/unknown', message: 'An unknown firmware ("Blink"): flash the dice-tower firmware (dice-tower flash).', params: { firmware: 'Blink' } });
    expect(firmwareNote(null)).toEqual({ code: 'firmware/none', message: 'No board connected.', params: {} });
  });

  it('answers /api/setup/devices and a preview frame; says so when there is no camera or the ports cannot be listed', async () => {
    const sim = createSimulator({ seed: 2, colours: ['white'], rollMs: 0 });
    const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() });
    const app = buildApp({
      table, version: 'test',
      setupHardware: {
        ...NO_SETUP_HARDWARE, camera: sim.camera, cameraSource: 'sim', link: {
          serial: () => '/dev/ttyACM0',
          boardSetup: () => ({
            view: () => ({ connected: true, firmware: 'StandardFirmata.ino', version: '2.5', mode: 'host-driven', path: '/dev/ttyACM0', tipAngle: 150, restAngle: 30, light: 255, trayInPlace: true, lastButtonAt: null }),
            testTip: async () => {},
            setAngles: () => {},
          }),
          connect: async () => {},
          disconnect: async () => {},
        },
        listCameras: () => [], listPorts: async () => { throw new Error('no udev'); },
      },
    });
    const devices = (await app.inject('/api/setup/devices')).json();
    expect(devices).toMatchObject({
      cameras: [], camera: { source: 'sim', preview: true }, ports: [], portsProblem: { code: 'setup/ports_unlisted', message: 'The serial ports could not be listed: no udev', params: { error: 'no udev' } },
      tower: { kind: 'simulated', state: 'ready', firmware: 'StandardFirmata.ino', version: '2.5', mode: 'host-driven', path: '/dev/ttyACM0', note: { code: 'firmware/standard_firmata', message: expect.stringMatching(/^Stock StandardFirmata/) } },
    });
    const frame = await app.inject('/api/setup/preview.jpg');
    expect(frame.statusCode).toBe(200);
    expect(frame.headers['content-type']).toBe('image/jpeg');
    await app.close();
    const bare = buildApp({ table: new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() }), version: 'test' });
    expect((await bare.inject('/api/setup/preview.jpg')).json()).toMatchObject({ code: 'setup/no_preview' });
    await bare.close();
  });
});
