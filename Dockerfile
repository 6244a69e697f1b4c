# syntax=docker/dockerfile:1
# memsvc: build with the dev tools, run with the production dependencies only, as the `node` user.
# Not exercised in CI here (images cannot be pulled on these machines); see docs/operations.md.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# Compilers for the native addons when no prebuilt binary fits the platform.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY scripts/build-if-stale.mjs scripts/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    MEMSVC_SERVER_HOST=0.0.0.0 \
    MEMSVC_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
RUN chmod +x dist/cli.js && ln -s /app/dist/cli.js /usr/local/bin/memsvc \
    && mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["memsvc"]
CMD ["start"]
