/**
 * The process a video camera runs in (started by camera-sources.ts
 * `openVideoCamera`): it opens the camera named by its parent's first message,
 * then takes one frame per `capture` message, in order, until `close` or until
 * its parent is gone. Opening, setting up and reading a camera block for as long
 * as the driver takes, and a driver may crash: here neither stops the server.
 * (A worker thread would not do: the OpenCV binding keeps its classes in
 * process-wide statics that a second thread's load overwrites.)
 */
import { errorText } from '../error-text.js';
import { CameraError } from './types.js';
import { openVideoSource, type CameraSettings, type FixedSettings, type VideoCameraOptions, type VideoSource } from './video-capture.js';

export type CameraRequest =
  | { readonly kind: 'open'; readonly options: VideoCameraOptions }
  | { readonly kind: 'capture'; readonly id: number }
  | { readonly kind: 'adjust'; readonly id: number; readonly asked: FixedSettings }
  | { readonly kind: 'close' };

/** A CameraError as it crosses between processes (an Error's class does not). */
export interface CameraFault {
  readonly code: string;
  readonly message: string;
}

export type CameraReply =
  | { readonly kind: 'opened'; readonly settings: CameraSettings }
  | { readonly kind: 'not_opened'; readonly fault: CameraFault }
  | { readonly kind: 'frame'; readonly id: number; readonly image: Uint8Array; readonly width: number; readonly height: number; readonly capturedAt: number }
  | { readonly kind: 'adjusted'; readonly id: number; readonly settings: CameraSettings }
  | { readonly kind: 'failed'; readonly id: number; readonly fault: CameraFault };

const faultOf = (err: unknown): CameraFault => (err instanceof CameraError ? { code: err.code, message: err.message } : { code: 'camera/lost', message: `the camera failed: ${errorText(err)}` });

const send = process.send?.bind(process);
if (send === undefined) throw new Error('camera-process.ts runs as a child process (openVideoCamera starts it)');
const reply = (message: CameraReply) => send(message);

let source: VideoSource | null = null;
const end = () => {
  source?.close();
  source = null;
  // Nothing left to wait for: the process ends once its last replies are sent (disconnecting at once could drop them).
  process.channel?.unref();
};

process.on('message', (request: CameraRequest) => {
  if (request.kind === 'open') {
    try {
      source = openVideoSource(request.options);
      reply({ kind: 'opened', settings: source.settings });
    } catch (err) {
      reply({ kind: 'not_opened', fault: faultOf(err) });
      end();
    }
  } else if (request.kind === 'close') end();
  else if (source !== null && request.kind === 'adjust') {
    try {
      reply({ kind: 'adjusted', id: request.id, settings: source.adjust(request.asked) });
    } catch (err) {
      reply({ kind: 'failed', id: request.id, fault: faultOf(err) });
    }
  } else if (source !== null) {
    try {
      const frame = source.capture();
      reply({ kind: 'frame', id: request.id, image: frame.image, width: frame.width, height: frame.height, capturedAt: frame.capturedAt });
    } catch (err) {
      reply({ kind: 'failed', id: request.id, fault: faultOf(err) });
    }
  }
});
// The server is gone (it ended, or crashed): free the camera.
process.on('disconnect', () => source?.close());
