import type { FastifyInstance } from 'fastify';

/**
 * Runs the capability check once the server listens and logs one line per problem, so a missing node, file or
 * credential shows in the log at start-up instead of as the first failed job. Never throws.
 */
export async function checkEnginesAtStartup(app: FastifyInstance): Promise<void> {
  const router = app.koma.jobs.deps.router;
  if (!router.checkEngines) return;
  try {
    const status = await router.checkEngines();
    for (const engine of status.engines) {
      for (const server of engine.servers ?? []) {
        const log = { engine: engine.id, url: server.url, version: server.version };
        if (server.error) app.log.error(log, `engine check: ${server.error}`);
        for (const n of server.missingNodes) app.log.warn(log, `engine check: missing node ${n.node} (${n.source})`);
        for (const f of server.missingFiles) {
          app.log.warn(log, `engine check: missing file models/${f.folder}/${f.file} (${f.usedBy})`);
        }
        for (const w of server.warnings) app.log.warn(log, `engine check: ${w}`);
        if (!server.error) app.log.info(log, 'engine check: server reachable');
      }
    }
  } catch (err) {
    app.log.error({ err }, 'engine check failed');
  }
}
