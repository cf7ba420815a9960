/**
 * `dice-tower serve` with its modules loaded ahead: prints `loaded`, then
 * runs the CLI's `main(argv)` (the very code `bin/dice-tower.js` runs) once a
 * line arrives on stdin. The kill test keeps one of these warm, so that a
 * restart costs what `serve` itself does (open the store, replay, listen),
 * not the seconds Node takes to load OpenCV and Fastify on a busy machine.
 */
import { main } from '../../src/cli.js';

process.stdout.write('loaded\n');
process.stdin.once('data', () => {
  void main(process.argv.slice(2)).then((code) => {
    if (code !== 0) process.exit(code);
  });
});
