# Koma: one image for the API (node dist/main.js) and the job worker (node dist/worker.js).
# Stage 1 builds the web app and the server with the full install; stage 2 installs production packages only
# (`npm ci --omit=dev --workspace @koma/server`, as test/support/production.ts does) and copies the built files.
# docs/deploy.md explains the variables and the upgrade path.

FROM node:20.19-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json .npmrc ./
COPY packages/domain/package.json packages/domain/
COPY packages/editor/package.json packages/editor/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit
COPY . .
RUN npm run build -w @koma/web && npm run build -w @koma/server

FROM node:20.19-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY packages/domain/package.json packages/domain/
COPY packages/editor/package.json packages/editor/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --omit=dev --workspace @koma/server --no-audit && npm cache clean --force
COPY --from=build /src/apps/server/dist apps/server/dist
COPY --from=build /src/apps/web/dist apps/web/dist
RUN mkdir -p /data && chown node:node /data
USER node
WORKDIR /app/apps/server
EXPOSE 3000
# The worker image overrides the command (compose.yaml) and serves its health on HEALTH_PORT.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.HEALTH_PORT||process.env.PORT)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--enable-source-maps", "dist/main.js"]
