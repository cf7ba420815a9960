// @u4/opencv4nodejs logs its build configuration on every load; silence it
// before the binding is imported (see opencv.ts).
import { Log } from '@u4/opencv-build';

Log.silence = true;
