# Local stand-in for the official redis image (docker/build-bases.sh): Debian bookworm's Redis 7, data in
# /data (the volume; the working directory, where appendonly files go), run as `redis`.
ARG DEBIAN_IMAGE=typing-local/debian:bookworm
FROM ${DEBIAN_IMAGE}
COPY redis-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
RUN chmod 755 /usr/local/bin/docker-entrypoint.sh \
 && apt-get update \
 && apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir /data \
 && chown redis:redis /data
VOLUME /data
WORKDIR /data
ENTRYPOINT ["docker-entrypoint.sh"]
EXPOSE 6379
CMD ["redis-server"]
