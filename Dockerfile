# One image for web, worker and beat (docker-compose.yml picks the command), built in two
# stages: the first installs the locked dependencies into a virtualenv and collects the
# static files; the second carries only that virtualenv and the code, run as a plain user.
FROM python:3.11-slim AS build

ENV PYTHONDONTWRITEBYTECODE=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/venv/bin:$PATH
WORKDIR /app
RUN python -m venv /opt/venv
# The dependencies first, at the versions of the lock file (hashes checked): this layer is
# built again only when requirements.lock changes, not on every change of the code.
COPY requirements.lock ./
RUN pip install --require-hashes -r requirements.lock
COPY . .
RUN pip install --no-deps . \
 && DJANGO_SECRET_KEY=build-only DJANGO_DEBUG=0 RANGLIJST_VAR_DIR=/tmp/var \
    python manage.py collectstatic --noinput

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PATH=/opt/venv/bin:$PATH \
    DJANGO_SETTINGS_MODULE=config.settings RANGLIJST_VAR_DIR=/app/var
WORKDIR /app
COPY --from=build /opt/venv /opt/venv
COPY --from=build /app /app
RUN useradd --create-home ranglijst && mkdir -p /app/var && chown -R ranglijst /app/var
USER ranglijst
EXPOSE 8000
CMD ["gunicorn", "-c", "config/gunicorn.py", "config.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3"]
