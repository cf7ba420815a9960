/**
 * The setup page's board link over a scripted board (the board factory
 * injected, as no serial port can be faked for SerialPort): the port the fake
 * board answers on, `/dev/ttyFAKE0`, connects the real FirmataTower to it;
 * any other port fails as a missing device does.
 */
import { FirmataTower, type FirmataTowerOptions } from '../../src/hardware/firmata-tower.js';
import type { Tower } from '../../src/hardware/types.js';
import type { Table } from '../../src/table.js';
import { TowerLink, type TowerLinkOptions } from '../../src/setup/tower-link.js';
import type { FakeFirmataBoard } from './fake-firmata-board.js';

export const FAKE_PORT = '/dev/ttyFAKE0';

export function fakeBoardLink(
  table: Table,
  fallback: Tower,
  board: FakeFirmataBoard,
  tower: Omit<FirmataTowerOptions, 'openTransport'>,
  options: Partial<Omit<TowerLinkOptions, 'openBoard'>> = {},
): { link: TowerLink; towers: FirmataTower[] } {
  const towers: FirmataTower[] = [];
  const link = new TowerLink(table, fallback, {
    light: 255,
    saveAngles: () => {},
    ...options,
    openBoard: async (port) => {
      if (port !== FAKE_PORT) throw new Error(`Error: No such file or directory, cannot open ${port}`);
      const driver = new FirmataTower({ ...tower, openTransport: board.openTransport });
      towers.push(driver);
      try {
        await driver.connect();
      } catch (err) {
        await driver.close();
        throw err;
      }
      return driver;
    },
  });
  return { link, towers };
}
