import type { Config } from '@react-router/dev/config';

export default {
  ssr: true,
  // See server/main.js: the server reads the build from the same folder.
  buildDirectory: process.env.VITRINE_BUILD_DIR || 'build',
} satisfies Config;
