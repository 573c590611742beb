import { describe, expect, it } from 'vitest';

import { parseEnv } from './env.server';

describe('parseEnv', () => {
  it('gives every setting its default', () => {
    expect(parseEnv({})).toEqual({
      NODE_ENV: 'development',
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      DATABASE_POOL_MAX: 10,
      SEED: true,
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: 10_000,
    });
  });

  it('reads values and treats empty ones as unset', () => {
    const env = parseEnv({
      PORT: '8080',
      SEED: 'false',
      DATABASE_URL: 'postgres://localhost/loja',
      DATA_DIR: '',
    });
    expect(env).toMatchObject({
      PORT: 8080,
      SEED: false,
      DATABASE_URL: 'postgres://localhost/loja',
      DATA_DIR: './data',
    });
  });

  it('names every bad variable in one error', () => {
    expect(() => parseEnv({ PORT: 'abc', DATABASE_URL: 'mysql://x', SEED: 'maybe' })).toThrow(
      /PORT[\s\S]*DATABASE_URL[\s\S]*SEED|PORT[\s\S]*SEED[\s\S]*DATABASE_URL/,
    );
  });
});
