import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

describe('loadConfig', () => {
  it('runs with no environment at all: loopback port 3000, SQLite and images under ./data', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.storage).toEqual({ kind: 'local', dir: path.resolve('./data/images') });
    expect(config.startingCredits).toBe(100);
    expect(config.cookieSecure).toBe(false);
  });

  it('switches to PostgreSQL and S3 when they are configured', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@db/koma',
      S3_BUCKET: 'images',
      S3_ENDPOINT: 'http://minio:9000',
      PORT: '8080',
      STARTING_CREDITS: '0',
      ALLOWED_ORIGINS: 'http://a.test, http://b.test',
    });
    expect(config.databaseUrl).toBe('postgres://u@db/koma');
    expect(config.storage).toMatchObject({
      kind: 's3',
      bucket: 'images',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
    });
    expect(config.port).toBe(8080);
    expect(config.startingCredits).toBe(0);
    expect(config.allowedOrigins).toEqual(['http://a.test', 'http://b.test']);
  });

  it('names the variable when a value is malformed', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow('PORT');
    expect(() => loadConfig({ STARTING_CREDITS: '-5' })).toThrow('STARTING_CREDITS');
    expect(() => loadConfig({ COOKIE_SECURE: 'maybe' })).toThrow('COOKIE_SECURE');
  });
});
