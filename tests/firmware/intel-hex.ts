/**
 * Intel HEX reader: the records of an avr-objcopy `.hex` into a flash image.
 * Handles data (00), end of file (01), extended segment (02) and extended
 * linear (04) address records, and checks every record's checksum.
 */
export function parseIntelHex(text: string, flashBytes = 0x8000): Uint8Array {
  const flash = new Uint8Array(flashBytes);
  let base = 0;
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line) continue;
    if (!line.startsWith(':') || line.length % 2 === 0) throw new Error(`hex line ${index + 1}: not a record`);
    const bytes = Buffer.from(line.slice(1), 'hex');
    const [count = 0, hi = 0, lo = 0, type] = bytes;
    if (bytes.length !== count + 5) throw new Error(`hex line ${index + 1}: length mismatch`);
    if (bytes.reduce((sum, b) => (sum + b) & 0xff, 0) !== 0) throw new Error(`hex line ${index + 1}: bad checksum`);
    const data = bytes.subarray(4, 4 + count);
    if (type === 0x00) {
      const address = base + ((hi << 8) | lo);
      if (address + count > flash.length) throw new Error(`hex line ${index + 1}: beyond ${flashBytes} bytes of flash`);
      flash.set(data, address);
    } else if (type === 0x01) {
      break;
    } else if (type === 0x02) {
      base = ((data[0]! << 8) | data[1]!) << 4;
    } else if (type === 0x04) {
      base = ((data[0]! << 8) | data[1]!) << 16;
    }
  }
  return flash;
}

/** The flash image as the 16-bit program words avr8js executes. */
export function toProgram(flash: Uint8Array): Uint16Array {
  return new Uint16Array(flash.buffer, flash.byteOffset, flash.byteLength >> 1);
}
