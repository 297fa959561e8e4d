import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { checkEnginesAtStartup } from './engines/startup-check.ts';

// Start-up: read the environment, build the app, listen; on SIGINT/SIGTERM stop taking requests,
// let the ones in flight finish, close the database and exit.
const config = loadConfig();
const app = await buildApp(config);

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const timer = setTimeout(() => {
    app.log.error('shutdown took longer than 10 s; exiting');
    process.exit(1);
  }, 10_000);
  timer.unref();
  try {
    await app.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'error during shutdown');
    process.exit(1);
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void shutdown(signal));
}

try {
  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { database: app.koma.database.dialect, storage: config.storage.kind, dataDir: config.dataDir },
    'Koma server ready',
  );
  // The capability check: what each engine server has, logged now and shown in the engine status view.
  void checkEnginesAtStartup(app);
} catch (err) {
  app.log.error({ err }, 'could not start');
  await app.close();
  process.exit(1);
}
