/** The request log's URL: the values of the query parameters that carry a token are hidden, however they are spelt. */
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/api/log-redaction.js';

describe('redactUrl', () => {
  it('hides ?operator= and ?token= values and keeps everything else', () => {
    expect(redactUrl('/api/games/g1/seats/0/qr.svg?operator=s3cret-operator-token')).toBe('/api/games/g1/seats/0/qr.svg?operator=[redacted]');
    expect(redactUrl('/api/games/g1/rolls/2/frame.jpg?seat=1&token=s3cret-seat&x=2')).toBe('/api/games/g1/rolls/2/frame.jpg?seat=1&token=[redacted]&x=2');
    expect(redactUrl('/api/games/g1')).toBe('/api/games/g1');
  });

  it('hides a parameter whose name is percent-encoded (the query parser decodes it), and one whose name cannot be decoded', () => {
    expect(redactUrl('/x?%6Fperator=s3cret&tok%65n=s3cret2')).toBe('/x?%6Fperator=[redacted]&tok%65n=[redacted]');
    expect(redactUrl('/x?%E0%A4%A=s3cret')).toBe('/x?%E0%A4%A=[redacted]');
  });
});
