/** The one place OpenCV is imported from, loaded quietly. */
import './quiet-opencv.js';
import cv from '@u4/opencv4nodejs';

export default cv;
