# Multi-stage: build the single binary exactly as `npm run build` does (what CI tests), then run it as a
# non-root user on a slim base, with the data directory as a volume.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
ARG RELEASE=""
RUN RELEASE="$RELEASE" npm run build

FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --home-dir /data --no-create-home linkprev \
 && mkdir -p /data && chown linkprev /data
COPY --from=build /app/dist/linkprev /usr/local/bin/linkprev
USER linkprev
WORKDIR /data
ENV HOST=0.0.0.0 PORT=3000 DATA_DIR=/data NODE_ENV=production
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s CMD ["linkprev", "admin", "health"]
CMD ["linkprev", "serve"]
