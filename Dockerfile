FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY indexer ./indexer
COPY mappings ./mappings
COPY datasets ./datasets
COPY data ./data
ENV NODE_ENV=production PORT=3000
EXPOSE 3000
USER node
CMD ["npx", "tsx", "src/main.ts"]
