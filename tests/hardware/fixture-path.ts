import { fileURLToPath } from 'node:url';

/** The firmware session recorded by record-serial-fixture.ts. */
export const FIXTURE_PATH = fileURLToPath(new URL('../../fixtures/serial/dice-tower-session.json', import.meta.url));
