import http from 'node:http';
import type { Logger } from 'pino';
import { scrape } from './metrics.ts';
import type { Readiness } from './readiness.ts';

/**
 * The worker's own small HTTP port (HEALTH_PORT): the same /api/health, /api/ready and /metrics as the API, so an
 * orchestrator can restart a stuck worker and Prometheus can scrape its job and engine metrics. Plain node:http:
 * a worker serves no API and needs no framework.
 */
export async function startWorkerHttp(options: {
  host: string;
  port: number;
  readiness: Readiness;
  log: Logger;
}): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const send = (status: number, type: string, body: string): void => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    };
    const path = (request.url ?? '/').split('?')[0];
    void (async () => {
      if (request.method !== 'GET') return send(405, 'application/json', '{"error":"method_not_allowed"}');
      if (path === '/api/health') return send(200, 'application/json', JSON.stringify({ status: 'ok' }));
      if (path === '/api/ready') {
        const report = await options.readiness.check();
        return send(report.status === 'ready' ? 200 : 503, 'application/json', JSON.stringify(report));
      }
      if (path === '/metrics') {
        const { contentType, body } = await scrape();
        return send(200, contentType, body);
      }
      send(404, 'application/json', '{"error":"not_found"}');
    })().catch((err: unknown) => {
      options.log.error({ err, path }, 'health endpoint failed');
      send(503, 'application/json', '{"error":"unavailable"}');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  return server;
}
