/**
 * The `dice-tower` command. `serve` is the main job: the server with the
 * scoreboard, driving the simulated tower unless told otherwise.
 */
import { parseArgs } from 'node:util';
import { PACKAGE_VERSION, parseColours, serve } from './server.js';
import { calibrateCommand, READ_USAGE, readCommand } from './vision-commands.js';
import { BACKUP_USAGE, backupCommand, restoreCommand } from './backup-commands.js';
import { VERIFY_USAGE, verifyCommand } from './verify-command.js';
import { SOLVE_USAGE, solveCommand } from './solve-command.js';
import { FLASH_USAGE, flashCommand } from './flash-command.js';
import { errorText } from './error-text.js';
import { cameraSettings, integer, mqttUrl, trustProxy } from './cli-options.js';
import { KEYS_USAGE, keysCommand } from './integrations/keys-command.js';

const USAGE = `Usage: dice-tower <command> [options]

Commands:
  serve        Run the server and the live scoreboard (simulated tower)
${READ_USAGE}${BACKUP_USAGE}${VERIFY_USAGE}${KEYS_USAGE}${SOLVE_USAGE}${FLASH_USAGE}  help         Show this help

Options of serve (environment variables in brackets):
  --port N           Port to listen on [PORT] (default 8080)
  --host ADDR        Address to listen on [HOST] (default 0.0.0.0)
  --seed N           Seed of the simulated tower [DICE_TOWER_SEED] (default: random)
  --colours LIST     Colours of the simulated dice, comma-separated, used in turn
                     [DICE_TOWER_COLOURS] (default red; white, ivory, red, green,
                     blue, yellow, black, purple, grey)
  --roll-ms N        Duration of a simulated roll cycle in ms (default 1200)
  --camera SOURCE    sim, a webcam (0, /dev/video0), a video file or a folder of
                     images [DICE_TOWER_CAMERA] (default: the camera chosen on
                     /setup.html, else sim); a real camera without a tower
                     mechanism reads dice thrown by hand
  --serial PORT      The tower's Arduino: auto (found by USB id) or a device
                     path like /dev/ttyACM0 [DICE_TOWER_SERIAL] (default: the
                     board connected on /setup.html, else none); needs --camera
  --tower-tip DEG    Tray servo angle when tipping (default: set on /setup.html,
                     else 150)
  --tower-rest DEG   Tray servo angle at rest (default: set on /setup.html,
                     else 30)
  --tower-hold-ms N  How long the tray stays tipped (default 800)
  --tower-return-ms N  How long the tray may take to be back in place before
                     the cycle counts as a jam (default 1500)
  --light N          Tray light level 0-255 (default 255)
  --still-ms N       A live camera reads once the tray has been still this
                     long (default 600)
  --settle-timeout-ms N  ...and reports a jam after this long (default 8000)
  --agree-frames N   ...then reads this many still frames, which must agree
                     (default 3; 1 reads one)
  --exposure N       A camera device's fixed exposure, V4L2 units of 100 µs
                     (1-100000; default: set on /setup.html, else automatic)
  --white-balance K  A camera device's fixed white balance in kelvin
                     (1000-15000; default automatic). Automatic settings change
                     the dice's colours between frames; a warning says when the
                     driver refuses a fixed one
  --data DIR         Data directory: the game log and camera frames
                     [DICE_TOWER_DATA] (default ./data)
  --log-level LEVEL  fatal, error, warn, info, debug (default warn)
  --trust-proxy LIST The proxies in front of the server: addresses, subnets
                     (10.0.0.0/8) or loopback, comma-separated
                     [DICE_TOWER_TRUST_PROXY]; their X-Forwarded-For then names
                     the client the rate limits count (default: none trusted)
  --mqtt URL         Publish the events to an MQTT broker (mqtt://host:1883),
                     with Home Assistant discovery [DICE_TOWER_MQTT]
  --mqtt-name NAME   The tower's name in the MQTT topics dice-tower/NAME/...
                     [DICE_TOWER_MQTT_NAME] (default: the host name)
`;

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve': {
        const { values } = parseArgs({
          args: [...rest],
          options: {
            port: { type: 'string' },
            host: { type: 'string' },
            seed: { type: 'string' },
            colours: { type: 'string' },
            'roll-ms': { type: 'string' },
            'log-level': { type: 'string' },
            camera: { type: 'string' },
            serial: { type: 'string' },
            'tower-tip': { type: 'string' },
            'tower-rest': { type: 'string' },
            'tower-hold-ms': { type: 'string' },
            'tower-return-ms': { type: 'string' },
            light: { type: 'string' },
            'still-ms': { type: 'string' },
            'settle-timeout-ms': { type: 'string' },
            'agree-frames': { type: 'string' },
            exposure: { type: 'string' },
            'white-balance': { type: 'string' },
            data: { type: 'string' },
            'trust-proxy': { type: 'string' },
            mqtt: { type: 'string' },
            'mqtt-name': { type: 'string' },
            'coach-memory': { type: 'string' },
          },
          strict: true,
        });
        const env = process.env;
        await serve({
          port: integer('port', values.port ?? env.PORT ?? '8080', 0, 65535),
          host: values.host ?? env.HOST ?? '0.0.0.0',
          seed: integer('seed', values.seed ?? env.DICE_TOWER_SEED ?? String(Math.floor(Math.random() * 2 ** 31)), 0, 2 ** 32 - 1),
          colours: parseColours(values.colours ?? env.DICE_TOWER_COLOURS ?? 'red'),
          rollMs: integer('roll-ms', values['roll-ms'] ?? '1200', 0, 60_000),
          logLevel: values['log-level'] ?? 'warn',
          ...(values.camera ?? env.DICE_TOWER_CAMERA ? { camera: (values.camera ?? env.DICE_TOWER_CAMERA) as string } : {}),
          ...(values.serial ?? env.DICE_TOWER_SERIAL ? { serial: (values.serial ?? env.DICE_TOWER_SERIAL) as string } : {}),
          ...(values['tower-tip'] === undefined ? {} : { towerTip: integer('tower-tip', values['tower-tip'], 0, 180) }),
          ...(values['tower-rest'] === undefined ? {} : { towerRest: integer('tower-rest', values['tower-rest'], 0, 180) }),
          towerHoldMs: integer('tower-hold-ms', values['tower-hold-ms'] ?? '800', 0, 10_000),
          towerReturnMs: integer('tower-return-ms', values['tower-return-ms'] ?? '1500', 100, 10_000),
          light: integer('light', values.light ?? '255', 0, 255),
          dataDir: values.data ?? env.DICE_TOWER_DATA ?? 'data',
          stillMs: integer('still-ms', values['still-ms'] ?? '600', 0, 60_000),
          settleTimeoutMs: integer('settle-timeout-ms', values['settle-timeout-ms'] ?? '8000', 500, 120_000),
          agreeFrames: integer('agree-frames', values['agree-frames'] ?? '3', 1, 10),
          ...cameraSettings(values),
          trustProxy: trustProxy(values['trust-proxy'] ?? env.DICE_TOWER_TRUST_PROXY),
          mqtt: mqttUrl(values.mqtt ?? env.DICE_TOWER_MQTT),
          ...(values['mqtt-name'] ?? env.DICE_TOWER_MQTT_NAME ? { mqttName: (values['mqtt-name'] ?? env.DICE_TOWER_MQTT_NAME) as string } : {}),
          coachMemoryMiB: integer('coach-memory', values['coach-memory'] ?? env.DICE_TOWER_COACH_MEMORY ?? '96', 16, 65_536),
          ...(env.DICE_TOWER_WEBHOOK_RETRY_MS ? { webhookRetryMs: integer('DICE_TOWER_WEBHOOK_RETRY_MS', env.DICE_TOWER_WEBHOOK_RETRY_MS, 1, 600_000) } : {}),
        });
        return 0;
      }
      case 'read':
        return await readCommand(rest);
      case 'calibrate':
        return await calibrateCommand(rest);
      case 'backup':
        return await backupCommand(rest);
      case 'restore':
        return await restoreCommand(rest);
      case 'verify':
        return verifyCommand(rest);
      case 'keys':
        return keysCommand(rest);
      case 'solve':
        return await solveCommand(rest);
      case 'flash':
        return await flashCommand(rest);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(USAGE);
        return command === undefined ? 1 : 0;
      case '--version':
        process.stdout.write(`${PACKAGE_VERSION}\n`);
        return 0;
      default:
        process.stderr.write(`dice-tower: unknown command '${command}'\n\n${USAGE}`);
        return 1;
    }
  } catch (err) {
    process.stderr.write(`dice-tower: ${errorText(err)}\n`);
    return 1;
  }
}
