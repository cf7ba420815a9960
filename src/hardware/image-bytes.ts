import cv from './opencv.js';

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
  if (isJpeg && !jpegIsWhole(bytes)) return 'the JPEG data stops before its end (the file is cut short, or still being written)';
  return null;
}

/**
 * Whether a JPEG's markers run, segment by segment, to an end-of-image marker
 * after a scan. Walked from the start, so a thumbnail inside a segment and
 * data a camera appends after the end are skipped, not mistaken for markers.
 */
function jpegIsWhole(data: Uint8Array): boolean {
  // A Buffer's indexOf is a native search (the scan data is most of the file).
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let at = 2;
  let scanned = false;
  while (at + 1 < bytes.length) {
    if (bytes[at] !== 0xff) return false;
    const marker = bytes[at + 1] as number;
    if (marker === 0xff) {
      at++; // fill byte before a marker
      continue;
    }
    if (marker === 0xd9) return scanned;
    // Restart markers and TEM stand alone; every other marker has a 2-byte length that counts itself.
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (at + 3 >= bytes.length) return false;
    at += 2 + (((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number));
    if (marker !== 0xda) continue;
    // Entropy-coded data follows a scan header: in it an FF is followed by 00 (a stuffed byte) or a restart marker.
    scanned = true;
    for (;;) {
      const ff = bytes.indexOf(0xff, at);
      if (ff < 0 || ff + 1 >= bytes.length) return false;
      const next = bytes[ff + 1] as number;
      if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
        at = ff + 2;
        continue;
      }
      at = ff;
      break;
    }
  }
  return false;
}

/** An encoded image decoded (BGR by default, or as `flags` asks), or what is wrong with it. */
export function decodeImage(bytes: Buffer, flags: number = cv.IMREAD_COLOR): { readonly image: cv.Mat } | { readonly problem: string } {
  const problem = encodedImageProblem(bytes);
  if (problem) return { problem };
  let image: cv.Mat;
  try {
    image = cv.imdecode(bytes, flags);
  } catch {
    return { problem: 'OpenCV cannot decode it (not a JPEG, PNG or other image)' };
  }
  if (image.empty || image.rows === 0) return { problem: 'OpenCV cannot decode it (not a JPEG, PNG or other image)' };
  return { image };
}
