# The scholargraph app; Neo4j runs in its own container (see docker-compose.yml).
FROM python:3.11-slim AS base
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY graph ./graph
COPY api ./api
COPY queries ./queries
COPY cli ./cli
RUN pip install --no-cache-dir .
EXPOSE 8000
# Install the schema, load the demo corpus once, then serve.
CMD ["sh", "-c", "scholargraph db init && scholargraph demo --papers ${SCHOLARGRAPH_DEMO_PAPERS:-2000} --if-empty && scholargraph serve --host 0.0.0.0 --port 8000"]
