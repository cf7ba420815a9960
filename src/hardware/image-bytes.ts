/**
 * What is wrong with an encoded image before OpenCV decodes it, or null.
 * OpenCV aborts the whole process on an empty buffer (a C++ assertion the
 * binding does not catch), and decodes a JPEG cut short without an error:
 * libjpeg fills the missing rows with grey, so a half-written file would read
 * as a tray with half its dice.
 */
export function encodedImageProblem(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return 'it is empty (0 bytes)';
  const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (!isJpeg) return null;
  // The image data ends with an end-of-image marker (FF D9) after its last scan (FF DA). Inside the scan data FF is always
  // followed by 00 or a restart marker, so neither marker can appear there; a thumbnail's markers come before the main image's scan.
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lastScan = buffer.lastIndexOf(SCAN);
  if (lastScan < 0 || buffer.indexOf(END, lastScan) < 0) return 'the JPEG data stops before its end (the file is cut short, or still being written)';
  return null;
}

const SCAN = Buffer.from([0xff, 0xda]);
const END = Buffer.from([0xff, 0xd9]);
