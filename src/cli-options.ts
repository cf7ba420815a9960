/** Option values of the command line, checked: a bad one throws a sentence naming the option and the range. */

/** A whole number from `min` to `max` given as option `name`. */
export function integer(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be a whole number from ${min} to ${max}, got '${text}'`);
  return n;
}

/** `--exposure` and `--white-balance`, checked; null where not given (the driver's automatic setting). */
export function cameraSettings(values: { readonly exposure?: string; readonly 'white-balance'?: string }): { exposure: number | null; whiteBalance: number | null } {
  return {
    exposure: values.exposure === undefined ? null : integer('exposure', values.exposure, 1, 100_000),
    whiteBalance: values['white-balance'] === undefined ? null : integer('white-balance', values['white-balance'], 1000, 15_000),
  };
}
