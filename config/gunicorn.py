"""gunicorn's settings for the web service (``gunicorn -c config/gunicorn.py config.wsgi``,
the Dockerfile and docker-compose.yml): the access log on standard output, in gunicorn's
usual format, with the personal calendar feed's secret masked (config/accesslog.py)."""

accesslog = "-"
logger_class = "config.accesslog.TokenMaskingLogger"
