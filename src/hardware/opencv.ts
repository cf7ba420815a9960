/** The one place OpenCV is imported from, loaded quietly, and set to run on the calling thread only. */
import './quiet-opencv.js';
import cv from '@u4/opencv4nodejs';

// One thread. The binding counts every Mat's memory against V8's heap, and that count is only safe from Node's own thread: an
// OpenCV worker thread allocating a Mat (a large warp or blur split across cores) once aborted Node with a V8 check
// (`marking_done_`). The reader's work is many small calls, which OpenCV's threads do not speed up (BENCHMARKS.md: the same
// times on one thread and two). `npm run bench:vision-speed -- --threads N` still measures other counts.
cv.setNumThreads(1);

export default cv;
