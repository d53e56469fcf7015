# syntax=docker/dockerfile:1
# The production image: the server as one JavaScript bundle with its source map (scripts/build-server.mjs),
# the built web app, and the npm packages the server needs at run time. Runs as the unprivileged `node`
# user; stored media and files go to /data (a volume). docs/deployment.md describes its use.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: every dependency, the web app, the server bundle
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# the manifests first: the `npm ci` layer is reused while only sources change
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/package.json
COPY apps/web/package.json apps/web/package.json
COPY packages/shared/package.json packages/shared/package.json
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY scripts scripts
COPY packages/shared packages/shared
COPY apps/server apps/server
COPY apps/web apps/web
RUN npm run build -w apps/web \
 && node scripts/build-server.mjs \
 && rm -rf apps/server/node_modules

# ---- the server's run-time packages only: the web app's (React, MUI, ~380 MB) are in its built
# files, and the build's tools are not needed (a whole-workspace prune kept both: 607 MB against 227)
FROM ${NODE_IMAGE} AS server-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/package.json
COPY apps/web/package.json apps/web/package.json
COPY packages/shared/package.json packages/shared/package.json
RUN npm ci --omit=dev -w apps/server --no-audit --no-fund \
 && npm cache clean --force

# ---- runtime
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
# owned by root and read-only to the server's user; only /data is writable
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=server-deps /app/node_modules node_modules
COPY --from=build /app/packages/shared packages/shared
COPY --from=build /app/apps/server apps/server
# packages npm could not hoist (another version than the root's) sit beside the server's package.json
COPY --from=server-deps /app/apps/server/node_modules apps/server/node_modules
COPY --from=build /app/apps/web/package.json apps/web/package.json
COPY --from=build /app/apps/web/dist apps/web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# liveness only (never reads the database); point the load balancer's readiness at /readyz
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# plain node on the bundle; --enable-source-maps makes stack traces name the .ts files and lines
CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]
