FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.lock .
RUN pip install --no-cache-dir --require-hashes -r requirements.lock
COPY . .
ENV STATIC_MANIFEST=true
RUN DEBUG=true python manage.py collectstatic --noinput
EXPOSE 8000
# Behind a reverse proxy, set TRUSTED_PROXIES to its address so that each visitor is counted
# under their own address (docs/deploy.md); DATABASE_POOL_SIZE bounds each process's
# PostgreSQL connections.
CMD ["sh", "-c", "python manage.py migrate --noinput && daphne -b 0.0.0.0 -p 8000 --websocket-max-message-size=65536 --websocket-max-frame-size=65536 stratego_site.asgi:application"]
