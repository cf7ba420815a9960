import { describe, expect, it } from 'vitest';
import cv from '../../src/hardware/opencv.js';
import { decodeImage, encodedImageProblem } from '../../src/hardware/image-bytes.js';

// Not one flat colour: the scan data then holds many bytes, FF among them.
const tray = new cv.Mat(120, 160, cv.CV_8UC3, [60, 110, 40]);
for (let i = 0; i < 40; i++) tray.drawCircle(new cv.Point2((i * 37) % 160, (i * 23) % 120), 3 + (i % 9), new cv.Vec3((i * 71) % 256, (i * 43) % 256, (i * 97) % 256), -1);
const jpeg = cv.imencode('.jpg', tray);
const png = cv.imencode('.png', tray);
const progressive = cv.imencode('.jpg', tray, [cv.IMWRITE_JPEG_PROGRESSIVE, 1]);

describe('an encoded image checked before OpenCV decodes it', () => {
  it('passes a whole JPEG, progressive JPEG or PNG, and a JPEG with data after its end (a phone\'s motion photo), markers and all', () => {
    expect(encodedImageProblem(jpeg)).toBeNull();
    expect(encodedImageProblem(progressive)).toBeNull();
    expect(encodedImageProblem(png)).toBeNull();
    expect(encodedImageProblem(Buffer.concat([jpeg, Buffer.from('trailer')]))).toBeNull();
    // A trailer holding what looks like a scan header (FF DA) with no end after it.
    expect(encodedImageProblem(Buffer.concat([jpeg, Buffer.from([0x12, 0xff, 0xda, 0x00, 0x08, 0x01, 0x02])]))).toBeNull();
  });

  it('skips a thumbnail inside a segment: its end marker does not make a cut main image whole', () => {
    const thumbnail = cv.imencode('.jpg', new cv.Mat(16, 16, cv.CV_8UC3, [10, 20, 30]));
    const exif = Buffer.concat([Buffer.from('Exif\0\0'), thumbnail]);
    const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, (exif.length + 2) >> 8, (exif.length + 2) & 0xff]), exif]);
    const withThumbnail = Buffer.concat([jpeg.subarray(0, 2), app1, jpeg.subarray(2)]);
    expect(encodedImageProblem(withThumbnail)).toBeNull();
    expect(decodeImage(withThumbnail)).toHaveProperty('image');
    expect(encodedImageProblem(withThumbnail.subarray(0, withThumbnail.length - 200))).toMatch(/stops before its end/);
  });

  it('names an empty buffer (OpenCV would abort the process on it), and bytes OpenCV cannot decode', () => {
    expect(encodedImageProblem(Buffer.alloc(0))).toBe('it is empty (0 bytes)');
    expect(decodeImage(Buffer.alloc(0))).toEqual({ problem: 'it is empty (0 bytes)' });
    expect(decodeImage(Buffer.from('these are not pixels'))).toEqual({ problem: 'OpenCV cannot decode it (not a JPEG, PNG or other image)' });
  });

  it('names a JPEG cut short, which OpenCV decodes without an error (the missing rows grey)', () => {
    for (const whole of [jpeg, progressive]) {
      for (const share of [0.3, 0.6, 0.99]) expect(encodedImageProblem(whole.subarray(0, Math.floor(whole.length * share)))).toMatch(/JPEG data stops before its end/);
    }
    // Cut off before its scan: only the headers.
    expect(encodedImageProblem(jpeg.subarray(0, 20))).toMatch(/stops before its end/);
  });
});
