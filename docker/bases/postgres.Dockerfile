# Local stand-in for the official postgres image (docker/build-bases.sh): Debian bookworm's PostgreSQL 15
# (the API needs 15 or later). postgres-entrypoint.sh reads the same POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB
# and PGDATA, initialises an empty data directory (the volume) once, and runs the server as `postgres`.
ARG DEBIAN_IMAGE=typing-local/debian:bookworm
FROM ${DEBIAN_IMAGE}
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
# No cluster from the package's postinst: the entrypoint creates one in the volume.
RUN chmod 755 /usr/local/bin/docker-entrypoint.sh \
 && mkdir -p /etc/postgresql-common/createcluster.d \
 && echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.d/no-main-cluster.conf \
 && apt-get update \
 && apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
 && chown postgres:postgres /var/lib/postgresql/data /var/run/postgresql \
 && chmod 700 /var/lib/postgresql/data
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
VOLUME /var/lib/postgresql/data
ENTRYPOINT ["docker-entrypoint.sh"]
# SIGINT is PostgreSQL's fast shutdown (SIGTERM would wait for every client to disconnect).
STOPSIGNAL SIGINT
EXPOSE 5432
CMD ["postgres"]
