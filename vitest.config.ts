import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Vision and browser tests do real work (OpenCV, Chromium): give them room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
