/** `dice-tower flash [--port P]`: the shipped firmware onto the tower's Arduino Uno, through avrdude. */
import { parseArgs } from 'node:util';

export const FLASH_USAGE = `  flash        Flash the tower firmware onto its Arduino Uno with avrdude
               (built with make first when needed); stop serve first, it
               holds the port
               --port PORT        auto (default: the Arduino found by USB id)
                                  or a device path like /dev/ttyACM0
               --firmware DIR     Another firmware folder with its Makefile
                                  (default: the shipped firmware/)
`;

/** Progress lines go to stdout as they come; a failure throws a FlashError, which main prints with avrdude's output. */
export async function flashCommand(args: readonly string[], write: (text: string) => void = (t) => process.stdout.write(t)): Promise<number> {
  const { values } = parseArgs({ args: [...args], options: { port: { type: 'string' }, firmware: { type: 'string' } }, strict: true });
  // Loaded on use: serialport is a native module the other commands do not need.
  const { flashFirmware } = await import('./hardware/flash.js');
  await flashFirmware({ port: values.port ?? 'auto', ...(values.firmware ? { firmwareDir: values.firmware } : {}), onProgress: (line) => write(`${line}\n`) });
  return 0;
}
