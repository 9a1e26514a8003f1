# Chorus main service: API, records backend, admin and the Angular client on one port (80).
# Build: docker build -t chorus .        Run: docker run -p 8080:80 -v chorus-db:/app/db chorus
FROM node:20-bookworm-slim AS build
WORKDIR /app
# sqlite3 compiles from source when no prebuilt binary matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
ENV ONNXRUNTIME_NODE_INSTALL=skip NG_CLI_ANALYTICS=false SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY client/package.json client/package-lock.json client/
RUN npm --prefix client install --no-audit --no-fund
COPY . .
RUN npm run build:api && npm run build:client \
    && npm prune --omit=dev \
    # Inference engines belong to the worker image only.
    && rm -rf node_modules/onnxruntime-node node_modules/onnxruntime-common node_modules/@huggingface node_modules/@echogarden

FROM node:20-bookworm-slim
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends libcap2-bin tini \
    && setcap cap_net_bind_service=+ep /usr/local/bin/node \
    && apt-get purge -y libcap2-bin && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /app/db/pb_data && chown -R node:node /app/db
ENV NODE_ENV=production PORT=80 INFERENCE_URL=http://inference:8000 DATA_DIR=/app/db LOG_LEVEL=info
COPY --from=build /app/package.json /app/catalog.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/api ./dist/api
COPY --from=build /app/client/dist/client/browser ./client/dist/client/browser
USER node
VOLUME ["/app/db"]
EXPOSE 80
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
    CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||80)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/api/src/main.js"]
