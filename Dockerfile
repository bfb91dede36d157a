# A Docker Space (https://huggingface.co/docs/hub/spaces-sdks-docker) running `hub serve --supervise`: the
# service restarts after a model failure or a crash, with its mood and conversations (in /data).
# Set LLM_API_KEY (and WEBHOOK_SECRET if you use the receiver) as Space secrets.

# Build: compile TypeScript and pack the package as npm would publish it.
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm pack --ignore-scripts && mv emotion-hub-*.tgz /emotion-hub.tgz

# Run: the packed package with production dependencies only, as the user (id 1000) Spaces run as.
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=7860 \
    EMOTIONS_FILE=/data/emotions.json
# /data is where a Space mounts persistent storage; without it the file lives as long as the container.
RUN mkdir -p /data /app && chown 1000:1000 /data /app
USER 1000
WORKDIR /app
COPY --chown=1000:1000 space/package.json ./
COPY --from=build --chown=1000:1000 /emotion-hub.tgz ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
EXPOSE 7860
CMD ["node_modules/.bin/hub", "serve", "--supervise"]
