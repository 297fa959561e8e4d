import http from 'node:http';

/**
 * The scale-out test's load balancer: round-robin over the API processes, on loopback. A request whose upstream
 * refuses the connection (a process that died) is sent to the next one, since it never reached a server; one cut
 * off mid-way is answered 502, as a real balancer would, and the client decides whether to retry. Each response
 * names the upstream that served it in `x-upstream` so the test can read a job's stream from another process.
 */
export class RoundRobinProxy {
  private next = 0;
  private server: http.Server | undefined;
  readonly served: number[];
  url = '';

  constructor(readonly upstreams: string[]) {
    this.served = upstreams.map(() => 0);
  }

  async start(): Promise<string> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => this.forward(request, Buffer.concat(chunks), response, 0));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    this.url = `http://127.0.0.1:${address.port}`;
    return this.url;
  }

  private forward(request: http.IncomingMessage, body: Buffer, response: http.ServerResponse, tries: number): void {
    const index = this.next++ % this.upstreams.length;
    const target = new URL(request.url ?? '/', this.upstreams[index]);
    const upstream = http.request(
      target,
      { method: request.method, headers: { ...request.headers, host: target.host }, agent: false },
      (reply) => {
        this.served[index] = (this.served[index] ?? 0) + 1;
        response.writeHead(reply.statusCode ?? 502, { ...reply.headers, 'x-upstream': String(index) });
        reply.pipe(response);
        reply.on('error', () => response.destroy());
      },
    );
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' && tries < this.upstreams.length) {
        this.forward(request, body, response, tries + 1);
      } else if (!response.headersSent) {
        response.writeHead(502, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: 'bad_gateway', message: `upstream ${index}: ${err.message}` }));
      } else {
        response.destroy();
      }
    });
    // A client that goes away (a stream it stopped reading) releases the upstream connection too.
    response.on('close', () => upstream.destroy());
    upstream.end(body);
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
