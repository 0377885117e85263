# The scholargraph app; Neo4j runs in its own container (see docker-compose.yml).
# Stage 1 bundles the page with Node; stage 2 builds the wheel with the bundle inside;
# the last stage installs only that wheel.
FROM node:20-slim AS web
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web ./web
RUN npm run build:web

FROM python:3.11-slim AS wheel
WORKDIR /src
COPY . .
COPY --from=web /src/api/web/dist ./api/web/dist
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 SCHOLARGRAPH_HOME=/var/lib/scholargraph
RUN useradd --create-home --uid 10001 scholargraph \
    && mkdir -p /var/lib/scholargraph && chown scholargraph /var/lib/scholargraph
COPY --from=wheel /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER scholargraph
WORKDIR /var/lib/scholargraph
VOLUME /var/lib/scholargraph
EXPOSE 8000
# Install the schema, load the demo corpus once, then serve.
CMD ["sh", "-c", "scholargraph db init && scholargraph demo --papers ${SCHOLARGRAPH_DEMO_PAPERS:-2000} --if-empty && scholargraph serve --host 0.0.0.0 --port 8000"]
