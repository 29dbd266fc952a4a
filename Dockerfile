# The compliance-read service: built on node:20-bookworm (native modules compiled from source),
# run on node:20-bookworm-slim with production dependencies only.

FROM node:20-bookworm AS build
WORKDIR /app
# better-sqlite3 is compiled here against the image's own Node headers: no prebuilt binary is fetched.
ENV npm_config_build_from_source=true \
    npm_config_nodedir=/usr/local \
    npm_config_fund=false \
    npm_config_audit=false \
    npm_config_update_notifier=false
COPY package.json package-lock.json ./
# The sources are not here yet, so the lifecycle's `prepare` (the build) waits; native modules are compiled next.
RUN npm ci --ignore-scripts \
 && npm rebuild better-sqlite3 esbuild
COPY tsconfig.json ./
COPY scripts/bundle.ts ./scripts/bundle.ts
COPY src ./src
COPY console ./console
RUN npm run build \
 && npm prune --omit=dev --ignore-scripts \
 && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src node_modules/better-sqlite3/build/Release/obj* node_modules/better-sqlite3/build/Release/.deps \
    node_modules/better-sqlite3/build/Release/sqlite3.a node_modules/better-sqlite3/build/Release/test_extension.node

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_URL=/data/compliance.db \
    FILES_DIR=/data/files
WORKDIR /app
# A user of its own, not root; /data belongs to it and is the volume for the SQLite store and document files.
RUN groupadd --gid 10001 compliance \
 && useradd --uid 10001 --gid compliance --home-dir /data --no-create-home --shell /usr/sbin/nologin compliance \
 && mkdir -p /data/files \
 && chown -R compliance:compliance /data \
 && chmod 700 /data
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER compliance:compliance
VOLUME ["/data"]
EXPOSE 8080
# No curl in the slim image: Node asks /healthz itself, on the address and port the service was given.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "const h=process.env.HOST;require('http').get({host:!h||h==='0.0.0.0'||h==='::'?'127.0.0.1':h,port:process.env.PORT||8080,path:'/healthz',timeout:2000},r=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1)).on('timeout',()=>process.exit(1))"]
# The service installs its own SIGTERM/SIGINT handlers, so it stops gracefully as PID 1.
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["serve"]
