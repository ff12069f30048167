# Build stage: TypeScript compiled to dist/ with the dev dependencies (tsc).
FROM node:24-bookworm-slim AS build
WORKDIR /app
# patches/: fixes to dependencies that npm ci applies (postinstall: patch-package --error-on-fail, so a patch that no
# longer applies, after a dependency upgrade, fails the build instead of shipping the dependency unpatched);
# .node-version, its pinned integrity and the three scripts: the postinstall's Node.js check (scripts/linkNode.mjs: on
# this image's Node 24 it fetches nothing).
COPY package.json package-lock.json .node-version .node-integrity ./
COPY patches ./patches
COPY scripts/linkNode.mjs scripts/projectNode.mjs scripts/node24.sh ./scripts/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY core ./core
COPY src ./src
COPY indexer ./indexer
COPY mappings ./mappings
# The pages (/map, /docs): the build copies them into dist/.
COPY web ./web
RUN npm run build

# Runtime: production dependencies and the compiled code only (no tsx, no dev dependencies).
FROM node:24-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json .node-version .node-integrity ./
COPY patches ./patches
COPY scripts/linkNode.mjs scripts/projectNode.mjs scripts/node24.sh ./scripts/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# The indexer's manifests and the bundled sample (the compose file's one-shot `sample` step loads it).
COPY datasets ./datasets
COPY data ./data
ENV NODE_ENV=production PORT=3000
EXPOSE 3000
USER node
CMD ["node", "dist/src/main.js"]
