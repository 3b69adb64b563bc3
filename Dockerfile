# Multi-stage: build the single binary, run it as a non-root user on a slim base.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --home /data linkprev && mkdir -p /data && chown linkprev /data
COPY --from=build /app/dist/linkprev /usr/local/bin/linkprev
USER linkprev
ENV HOST=0.0.0.0 PORT=3000 DATA_DIR=/data NODE_ENV=production
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s CMD ["linkprev", "admin", "health"]
CMD ["linkprev", "serve"]
