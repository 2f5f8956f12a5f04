# One image for web, worker and beat (docker-compose.yml picks the command).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_SETTINGS_MODULE=config.settings RANGLIJST_VAR_DIR=/app/var
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends gettext && rm -rf /var/lib/apt/lists/*
# The dependencies first, at the versions of the lock file (hashes checked): this layer is
# built again only when requirements.lock changes, not on every change of the code.
COPY requirements.lock ./
RUN pip install --require-hashes -r requirements.lock
COPY . .
RUN pip install --no-deps . \
 && DJANGO_SECRET_KEY=build-only DJANGO_DEBUG=0 python manage.py collectstatic --noinput \
 && useradd --create-home ranglijst && mkdir -p /app/var && chown -R ranglijst /app/var
USER ranglijst
EXPOSE 8000
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
